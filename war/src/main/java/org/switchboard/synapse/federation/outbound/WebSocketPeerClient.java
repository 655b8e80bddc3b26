package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.switchboard.json.Jsons;

/**
 * The peer connection of synapse-advanced §4.3 over the JDK's WebSocket client: a fresh socket per
 * exchange, closed afterwards; forwards to a peer that offers reuse go over its reused connections
 * instead when reuse is on ({@link PeerSessionPool}; ours, {@code hub.message-peer-reuse}). For {@code wss://} the server certificate must match the configured
 * SHA-256 pin (the pin replaces CA and host-name checks: it names the one certificate accepted), and
 * this hub presents its own client certificate ({@link PeerClientIdentity}) when one is configured, so
 * the peer can check the {@code cert_pin} of its grant (mutual TLS).
 */
public final class WebSocketPeerClient implements PeerClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private final HttpClient plain = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    private final java.util.Map<String, HttpClient> pinnedClients = new java.util.concurrent.ConcurrentHashMap<>();
    /** The client certificate offered on {@code wss://}; null: none. */
    private final PeerClientIdentity identity;
    private final java.util.concurrent.atomic.LongAdder opened = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder reusedForwards = new java.util.concurrent.atomic.LongAdder();
    /** Reused connections; null: one connection per forward, as §4.3 says. */
    private final PeerSessionPool pool;

    /** A client that presents no client certificate and opens one connection per forward. */
    public WebSocketPeerClient() {
        this(null, false);
    }

    /**
     * A client presenting {@code identity}'s certificate to {@code wss://} peers (null: none); with
     * {@code reuse}, forwards to peers that offer it share reused connections.
     */
    public WebSocketPeerClient(PeerClientIdentity identity, boolean reuse) {
        this.identity = identity;
        this.pool = reuse ? new PeerSessionPool(this::dial, System::nanoTime) : null;
    }

    @Override
    public JsonObject exchange(MessagePeers.Peer peer, JsonObject registration, JsonObject forward, String forwardId)
            throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_TIMEOUT_MILLIS);
        if (pool != null && pool.reusable(peer)) {
            try {
                JsonObject answer = pool.exchange(peer, registration.toString(), forward.toString(), forwardId, deadline);
                reusedForwards.increment();
                pool.learn(peer, answer);
                return answer;
            } catch (PeerSessionPool.Unattributable e) {
                // a plain error or a lost connection: this forward's fate comes from a connection of its own
                pool.forget(peer);
            }
        }
        JsonObject answer = request(peer, registration, forward, frame -> {
            String type = frame.get("type") instanceof JsonString s ? s.getString() : "";
            return "error".equals(type) || ForwardFrames.RESULT.equals(type)
                    && frame.get("forward_id") instanceof JsonString id && forwardId.equals(id.getString());
        }, deadline);
        if (pool != null) {
            pool.learn(peer, answer);
        }
        return answer;
    }

    @Override
    public ConnectionStats connectionStats() {
        return new ConnectionStats(opened.sum(), reusedForwards.sum());
    }

    @Override
    public void closeIdle() {
        if (pool != null) {
            pool.closeIdle();
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.closeAll();
        }
    }

    @Override
    public JsonObject request(MessagePeers.Peer peer, JsonObject registration, JsonObject forward,
                              java.util.function.Predicate<JsonObject> isAnswer) throws IOException {
        return request(peer, registration, forward, isAnswer,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_TIMEOUT_MILLIS));
    }

    private HttpClient http(MessagePeers.Peer peer) {
        return peer.tls() ? pinnedClients.computeIfAbsent(peer.pinHex(), pin -> pinned(pin, identity)) : plain;
    }

    /** Opens a reused connection: connected, registered, its frames routed to {@code inbound}. */
    private PeerSessionPool.Link dial(MessagePeers.Peer peer, String registration, PeerSessionPool.Inbound inbound,
                                      long deadline) throws IOException {
        WebSocket socket = null;
        opened.increment();
        try {
            socket = http(peer).newWebSocketBuilder().connectTimeout(CONNECT_TIMEOUT)
                    .buildAsync(peer.uri(), new SessionListener(inbound)).get(remaining(deadline), TimeUnit.NANOSECONDS);
            socket.sendText(registration, true).get(remaining(deadline), TimeUnit.NANOSECONDS);
            return new SocketLink(socket);
        } catch (TimeoutException e) {
            abort(socket);
            throw new IOException("no connection within the deadline");
        } catch (ExecutionException e) {
            abort(socket);
            throw new IOException("peer connection failed: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            abort(socket);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static void abort(WebSocket socket) {
        if (socket != null) {
            socket.abort();
        }
    }

    /** A reused connection's sending side: the JDK client takes one send at a time, so sends queue. */
    private static final class SocketLink implements PeerSessionPool.Link {
        private final WebSocket socket;
        private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

        SocketLink(WebSocket socket) {
            this.socket = socket;
        }

        @Override
        public synchronized CompletableFuture<?> send(String text) {
            CompletableFuture<?> next = tail.handle((ok, error) -> null).thenCompose(ignored -> socket.sendText(text, true));
            tail = next;
            return next;
        }

        @Override
        public void close() {
            if (!socket.isOutputClosed()) {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(1, TimeUnit.SECONDS)
                        .whenComplete((ws, error) -> socket.abort());
            } else {
                socket.abort();
            }
        }
    }

    /** A reused connection's receiving side: whole text frames, parsed, to the pool. */
    private static final class SessionListener implements WebSocket.Listener {
        private final PeerSessionPool.Inbound inbound;
        private final StringBuilder partial = new StringBuilder();

        SessionListener(PeerSessionPool.Inbound inbound) {
            this.inbound = inbound;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (partial.length() > Listener.MAX_FRAME_CHARS) {
                partial.setLength(0);
                inbound.closed();
                webSocket.abort();
                return null;
            }
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                inbound.frame(parse(text));
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            inbound.closed();
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            inbound.closed();
        }
    }

    private JsonObject request(MessagePeers.Peer peer, JsonObject registration, JsonObject forward,
                               java.util.function.Predicate<JsonObject> isAnswer, long deadline) throws IOException {
        HttpClient http = http(peer);
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        WebSocket socket = null;
        opened.increment();
        try {
            socket = http.newWebSocketBuilder().connectTimeout(CONNECT_TIMEOUT)
                    .buildAsync(peer.uri(), new Listener(answer, isAnswer)).get(remaining(deadline), TimeUnit.NANOSECONDS);
            socket.sendText(registration.toString(), true).get(remaining(deadline), TimeUnit.NANOSECONDS);
            socket.sendText(forward.toString(), true).get(remaining(deadline), TimeUnit.NANOSECONDS);
            return answer.get(remaining(deadline), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IOException("no answer within " + ANSWER_TIMEOUT_MILLIS + " ms");
        } catch (ExecutionException e) {
            throw new IOException("peer connection failed: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } finally {
            if (socket != null) {
                WebSocket open = socket;
                open.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(1, TimeUnit.SECONDS)
                        .whenComplete((ws, error) -> open.abort());
            }
        }
    }

    private static long remaining(long deadline) {
        return Math.max(1, deadline - System.nanoTime());
    }

    /** Collects text frames and completes with the first one the answer test accepts. */
    private static final class Listener implements WebSocket.Listener {
        /** Longest text frame read from a peer (ours): the largest answer (§4.4 result) is far below it. */
        private static final int MAX_FRAME_CHARS = 1 << 20;
        private final CompletableFuture<JsonObject> answer;
        private final java.util.function.Predicate<JsonObject> isAnswer;
        private final StringBuilder partial = new StringBuilder();

        Listener(CompletableFuture<JsonObject> answer, java.util.function.Predicate<JsonObject> isAnswer) {
            this.answer = answer;
            this.isAnswer = isAnswer;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (partial.length() > MAX_FRAME_CHARS) {
                partial.setLength(0);
                answer.completeExceptionally(new IOException("peer frame too large"));
            } else if (last) {
                String text = partial.toString();
                partial.setLength(0);
                JsonObject frame = parse(text);
                if (frame != null && isAnswer.test(frame)) {
                    answer.complete(frame);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            answer.completeExceptionally(new IOException("peer closed the connection (" + statusCode + ")"));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            answer.completeExceptionally(error);
        }
    }

    private static JsonObject parse(String text) {
        try (var reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            return value instanceof JsonObject o ? o : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A client whose TLS accepts exactly the certificate with this SHA-256 pin and presents {@code identity} (null: none). */
    static HttpClient pinned(String pinHex, PeerClientIdentity identity) {
        try {
            return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).sslContext(pinnedContext(pinHex, identity)).build();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS unavailable", e);
        }
    }

    /** The TLS context of {@link #pinned}: the pin as the only trust, {@code identity} as the only key (null: none). */
    static SSLContext pinnedContext(String pinHex, PeerClientIdentity identity) throws GeneralSecurityException {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(identity == null ? null : new javax.net.ssl.KeyManager[] {identity.keyManager()},
                new TrustManager[] {new PinTrust(pinHex)}, null);
        return tls;
    }

    /** Accepts a server whose leaf certificate's DER hashes to the pin; nothing else. */
    static final class PinTrust extends X509ExtendedTrustManager {
        private final String pinHex;

        PinTrust(String pinHex) {
            this.pinHex = pinHex;
        }

        static String pinOf(X509Certificate certificate) throws CertificateException {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new CertificateException(e);
            }
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0 || !MessageDigest.isEqual(
                    pinOf(chain[0]).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    pinHex.getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
                throw new CertificateException("peer certificate does not match its pin");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
