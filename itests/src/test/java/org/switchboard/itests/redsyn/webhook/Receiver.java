package org.switchboard.itests.redsyn.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver on 127.0.0.1: records every POST per path (headers, body, arrival time) and
 * answers with the status the test scripted for that path (500 until told otherwise).
 */
final class Receiver implements AutoCloseable {

    /** One POST as received. */
    record Delivery(String path, Map<String, String> headers, String body, long arrivedNanos) {
        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final Map<String, BlockingQueue<Delivery>> received = new ConcurrentHashMap<>();
    private final Map<String, Function<Delivery, Integer>> responders = new ConcurrentHashMap<>();

    Receiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Sets how POSTs to {@code path} are answered (a status per delivery). */
    void respond(String path, Function<Delivery, Integer> responder) {
        responders.put(path, responder);
    }

    /** The next POST to {@code path}, or null after the timeout. */
    Delivery next(String path, long timeoutMillis) throws InterruptedException {
        return queue(path).poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private BlockingQueue<Delivery> queue(String path) {
        return received.computeIfAbsent(path, p -> new LinkedBlockingQueue<>());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> headers = new ConcurrentHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
            String path = exchange.getRequestURI().getPath();
            Delivery d = new Delivery(path, headers, body, System.nanoTime());
            int status = exchange.getRequestMethod().equals("POST") ? responders.getOrDefault(path, x -> 500).apply(d) : 405;
            queue(path).add(d);
            exchange.sendResponseHeaders(status, -1);
        }
    }

    /** Independent HMAC-SHA256 (hex) for checking signatures. */
    static String hmacHex(String key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when {@code Redsyn-Signature} is {@code t=<recent>,v1=<HMAC(secret, t + "." + body)>}. */
    static boolean genuine(Delivery d, String secret) {
        String header = d.header("Redsyn-Signature");
        if (header == null) {
            return false;
        }
        String t = null;
        String v1 = null;
        for (String part : header.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1 = kv[1];
            }
        }
        if (t == null || v1 == null || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) > 300) {
            return false;
        }
        return hmacHex(secret, t + "." + d.body()).equals(v1);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
