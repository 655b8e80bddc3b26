package org.switchboard.itests.synapse;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.switchboard.itests.support.HubServer;

/**
 * Waits until the SYNAPSE side of a started hub answers: the server-wide readiness probe can report
 * UP before the application has finished deploying (notably after a restart), so SYNAPSE tests poll
 * the hub's own {@code /health} before opening sockets.
 */
final class SynapseReady {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private SynapseReady() {
    }

    /** Polls {@code /health} (with the bearer token when given) until it answers 200, or fails after 180 s. */
    static HubServer await(HubServer hub, String metricsToken) {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(hub.http("/health")).timeout(Duration.ofSeconds(5));
                if (metricsToken != null) {
                    request.header("Authorization", "Bearer " + metricsToken);
                }
                if (HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return hub;
                }
            } catch (IOException e) {
                // not answering yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("SYNAPSE /health not answering; see " + hub.logFile());
    }

    static HubServer await(HubServer hub) {
        return await(hub, null);
    }
}
