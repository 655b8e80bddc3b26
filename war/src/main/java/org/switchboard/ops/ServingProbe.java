package org.switchboard.ops;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Asks the server, over loopback HTTP, whether the application's own endpoints answer yet.
 *
 * <p>Why: Payara evaluates the application's readiness check while the WAR is still being
 * enabled, so a check that only looks inside the application reports UP while requests to it still
 * get the container's 404/503 pages. An endpoint counts as served when it answers with a JSON body
 * (any status: {@code /redsyn/v1/me} answers 401 without a token). Once every endpoint has answered,
 * the probe stays satisfied for the life of the process and makes no further requests.
 *
 * <p>The probe runs asynchronously and the readiness check only reads its last outcome: a check
 * that waited on a request to its own server held an HTTP worker while that request needed one,
 * and on a saturated machine frequent readiness polls kept the pool busy long enough for readiness
 * to stay DOWN for minutes.
 *
 * <p>An {@code https} base (run-hub with a keystore) is probed with any certificate accepted: the
 * probe asks its own listener, sends no credentials and reads only a Content-Type, and the hub has no
 * trust store holding its own (often self-signed) certificate.
 */
public final class ServingProbe {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final List<String> paths;
    private final HttpClient http;
    private final AtomicReference<CompletableFuture<Boolean>> inFlight = new AtomicReference<>();
    private volatile boolean served;

    /** A probe of {@code paths} under {@code base}; a null base means "not configured", always served. */
    public ServingProbe(URI base, List<String> paths) {
        this.base = base;
        this.paths = List.copyOf(paths);
        if (base == null) {
            this.http = null;
        } else {
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
                    .followRedirects(HttpClient.Redirect.NEVER);
            if ("https".equalsIgnoreCase(base.getScheme())) {
                // the connect timeout covers the TLS handshake, which took over a second on a loaded machine
                builder.sslContext(ownListener()).connectTimeout(Duration.ofSeconds(10));
            }
            this.http = builder.build();
        }
        this.served = base == null;
    }

    /** True once every path has answered with JSON; otherwise starts a probe (if none runs) and answers false. */
    public boolean served() {
        if (!served) {
            probe();
        }
        return served;
    }

    /** The running probe, or a new one; completes with whether every path answered with JSON. */
    CompletableFuture<Boolean> probe() {
        if (served) {
            return CompletableFuture.completedFuture(true);
        }
        while (true) {
            CompletableFuture<Boolean> current = inFlight.get();
            if (current != null && !current.isDone()) {
                return current;
            }
            CompletableFuture<Boolean> next = new CompletableFuture<>();
            if (inFlight.compareAndSet(current, next)) {
                ask(0, next);
                return next;
            }
        }
    }

    private void ask(int index, CompletableFuture<Boolean> outcome) {
        if (index == paths.size()) {
            served = true;
            outcome.complete(true);
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve(paths.get(index))).timeout(TIMEOUT).GET().build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            boolean json = failure == null && response.headers().firstValue("Content-Type")
                    .map(type -> type.startsWith("application/json")).orElse(false);
            if (json) {
                ask(index + 1, outcome);
            } else {
                outcome.complete(false);
            }
        });
    }

    /** A TLS context that accepts the hub's own certificate, whatever signed it (see the class comment). */
    private static SSLContext ownListener() {
        TrustManager acceptAny = new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                // never a server
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                // the hub's own listener
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
                // never a server
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
                // the hub's own listener
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                // never a server
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                // the hub's own listener; no host name check either (it is asked by address)
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {acceptAny}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
    }
}
