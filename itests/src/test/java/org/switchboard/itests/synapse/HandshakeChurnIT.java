package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.switchboard.itests.support.HubServer;
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
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                socket.setSoTimeout(15000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                byte[] key = new byte[16];
                ThreadLocalRandom.current().nextBytes(key);
                out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                        + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                String head = readHead(in);
                if (!head.startsWith("HTTP/1.1 101")) {
                    failures.add("raw handshake " + id + "-" + i + " answered: " + head.lines().findFirst().orElse(head));
                    continue;
                }
                out.write(maskedText("{\"type\":\"heartbeat\",\"target\":\"System\",\"payload\":\"online\",\"timestamp\":1,"
                        + "\"sender\":\"churn/raw" + id + "-" + (i % 3) + "\"}"));
                out.flush();
                Thread.sleep(ThreadLocalRandom.current().nextInt(0, 20));
                socket.setSoLinger(true, 0); // reset, as a client that vanishes
                aborted.incrementAndGet();
            } catch (IOException e) {
                // the hub may close a raw socket first (name clash); that is not what this test watches
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] maskedText(String text) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x81);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length & 0xff);
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.write(mask, 0, 4);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        return frame.toByteArray();
    }
}
