package org.switchboard.ops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Asks the server, over loopback HTTP, whether the application's own endpoints answer yet.
 *
 * <p>Why: Payara evaluates the application's readiness check while the WAR is still being
 * enabled, so a check that only looks inside the application reports UP while requests to it still
 * get the container's 404/503 pages. An endpoint counts as served when it answers with a JSON body
 * (any status: {@code /redsyn/v1/me} answers 401 without a token). Once every endpoint has answered,
 * the probe stays satisfied for the life of the process and makes no further requests.
 */
public final class ServingProbe {

    private final URI base;
    private final List<String> paths;
    private final HttpClient http;
    private volatile boolean served;

    /** A probe of {@code paths} under {@code base}; a null base means "not configured", always served. */
    public ServingProbe(URI base, List<String> paths) {
        this.base = base;
        this.paths = List.copyOf(paths);
        this.http = base == null ? null
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).followRedirects(HttpClient.Redirect.NEVER).build();
        this.served = base == null;
    }

    /** True once every path has answered with JSON. */
    public boolean served() {
        if (served) {
            return true;
        }
        for (String path : paths) {
            if (!answersJson(base.resolve(path))) {
                return false;
            }
        }
        served = true;
        return true;
    }

    private boolean answersJson(URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).GET().build();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            return response.headers().firstValue("Content-Type").map(type -> type.startsWith("application/json"))
                    .orElse(false);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
