package org.switchboard.redsyn.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The HTTP side of a delivery: one signed POST with connect and request timeouts, no redirects
 * followed. Returns the status, or -1 when there was no answer (refused, timed out, reset).
 */
public final class WebhookPoster {

    /** Longest wait for a connection. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Longest wait for the whole answer; a slower receiver counts as no answer. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final HttpClient http;

    /** A poster on its own client (HTTP/1.1, redirects never followed: a 3xx is not a 2xx). */
    public WebhookPoster() {
        this.http = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** One attempt of a prepared delivery, signed now. */
    public int post(DeliveryAttempt attempt, long nowSeconds) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(attempt.url()))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("User-Agent", "switchboard-redsyn-webhook")
                .header(WebhookSignature.HEADER, WebhookSignature.header(attempt.secret(), nowSeconds, attempt.body()))
                .header("Redsyn-Version", attempt.version())
                .header("Redsyn-Delivery", attempt.messageId())
                .POST(HttpRequest.BodyPublishers.ofString(attempt.body()))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException | IllegalArgumentException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
