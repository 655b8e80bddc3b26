package org.switchboard.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServingProbeTest {

    private HttpServer server;
    private final AtomicReference<String> redsynType = new AtomicReference<>("text/html");
    private final AtomicInteger requests = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/health", exchange -> answer(exchange, 200, "application/json"));
        server.createContext("/redsyn/v1/me", exchange -> answer(exchange, 401, redsynType.get()));
        server.createContext("/slow", exchange -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "application/json");
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    private void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String type) throws IOException {
        requests.incrementAndGet();
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @Test
    void notServedWhileAnEndpointAnswersWithTheContainersPage() {
        ServingProbe probe = new ServingProbe(base(), List.of("health", "redsyn/v1/me"));
        assertFalse(probe.served(), "the first readiness call never waits for the probe");
        assertFalse(probe.probe().join());
        assertFalse(probe.served());
        redsynType.set("application/json");
        assertTrue(probe.probe().join());
        assertTrue(probe.served(), "a 401 with a JSON body is the application answering");
    }

    @Test
    void onceServedItStopsAsking() {
        redsynType.set("application/json");
        ServingProbe probe = new ServingProbe(base(), List.of("health", "redsyn/v1/me"));
        assertTrue(probe.probe().join());
        assertTrue(probe.served());
        int after = requests.get();
        assertTrue(probe.served());
        assertTrue(after == requests.get(), "no further requests once served");
    }

    @Test
    void aReadinessCallNeverWaitsForTheServerToAnswer() {
        ServingProbe probe = new ServingProbe(base(), List.of("slow"));
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(2), probe::served), "answered before the server did");
        release.countDown();
        assertTrue(probe.probe().join());
        assertTrue(probe.served());
    }

    @Test
    void nothingListeningIsNotServed() {
        ServingProbe probe = new ServingProbe(URI.create("http://127.0.0.1:1/"), List.of("health"));
        assertFalse(probe.probe().join());
        assertFalse(probe.served());
    }

    @Test
    void unconfiguredProbeCountsAsServed() {
        assertTrue(new ServingProbe(null, List.of("health")).served());
    }
}
