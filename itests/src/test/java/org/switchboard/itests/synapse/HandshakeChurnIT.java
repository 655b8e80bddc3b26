package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;
import org.switchboard.itests.support.SynapseClient;

/**
 * Reproduces the "handshake answered 200" flake: stock-style clients register, chat, close and
 * reconnect in a loop while raw sockets abort right after their 101 (a client that drops during
 * the handshake). On Payara 6.2025.10 an abort that lands while the upgrade request is still in
 * the container's service call makes the container finish that request twice; its pooled
 * request/response objects are then shared with later connections, and a later handshake is
 * answered {@code 200} with another socket's frames as body (ended by the registration timeout
 * after 10 s), or a fresh socket is closed right after its 101 without a welcome.
 *
 * <p>Opt-in ({@code -Dsynapse.handshake-churn=true}, bounded to {@value #CHURN_SECONDS} s of churn)
 * because the container defect is not fixed by the application: the test fails on the current
 * server and is kept to show the defect and to verify a container upgrade or a workaround.
 */
@EnabledIfSystemProperty(named = "synapse.handshake-churn", matches = "true")
class HandshakeChurnIT {

    private static final int CHURN_SECONDS = 40;
    private static HubServer hub;

    @BeforeAll
    static void start() {
        hub = HubServer.start();
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    void everyHandshakeIsUpgradedAndWelcomedWhileOtherClientsDropAbruptly() throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(CHURN_SECONDS).toNanos();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger stockSessions = new AtomicInteger();
        AtomicInteger aborted = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int id = t;
            threads.add(new Thread(() -> stockLoop(id, end, stockSessions, failures), "stock-" + t));
            threads.add(new Thread(() -> abortLoop(id, end, aborted, failures), "abort-" + t));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(CHURN_SECONDS + 60).toMillis());
        }
        assertTrue(stockSessions.get() > 100, "churn too slow to mean anything: " + stockSessions + " sessions");
        assertTrue(aborted.get() > 100, "too few aborted handshakes: " + aborted);
        assertEquals(List.of(), failures, stockSessions + " stock sessions, " + aborted + " aborted handshakes");
    }

    /** Two SynapseClients per round, as consecutive tests use them: register, chat, close, reconnect at once. */
    private static void stockLoop(int id, long end, AtomicInteger sessions, List<String> failures) {
        for (int i = 0; System.nanoTime() < end; i++) {
            String a = "churn/a" + id + "-" + i;
            String b = "churn/b" + id + "-" + i;
            String text = "hi " + i;
            try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), a);
                    SynapseClient bob = SynapseClient.register(hub.webSocketUri(), b)) {
                alice.send(SynapseClient.frame("chat", b, text));
                bob.expect(f -> text.equals(f.getString("payload", "")), Duration.ofSeconds(10));
                sessions.addAndGet(2);
            } catch (RuntimeException | AssertionError e) {
                failures.add(a + "/" + b + ": " + e + (e.getCause() != null ? " <- " + e.getCause() : ""));
            }
        }
    }

    /** Raw handshakes that drop the TCP connection 0-20 ms after the 101, with no close frame. */
    private static void abortLoop(int id, long end, AtomicInteger aborted, List<String> failures) {
        int port = hub.webSocketUri().getPort();
        for (int i = 0; System.nanoTime() < end; i++) {
            try (RawWebSocket socket = RawWebSocket.open(port, 0)) {
                if (!socket.upgraded()) {
                    String head = socket.handshakeAnswer();
                    failures.add("raw handshake " + id + "-" + i + " answered: " + head.lines().findFirst().orElse(head));
                    continue;
                }
                socket.sendText("{\"type\":\"heartbeat\",\"target\":\"System\",\"payload\":\"online\",\"timestamp\":1,"
                        + "\"sender\":\"churn/raw" + id + "-" + (i % 3) + "\"}");
                Thread.sleep(ThreadLocalRandom.current().nextInt(0, 20));
                socket.resetOnClose();
                aborted.incrementAndGet();
            } catch (IOException e) {
                // the hub may close a raw socket first (name clash); that is not what this test watches
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
