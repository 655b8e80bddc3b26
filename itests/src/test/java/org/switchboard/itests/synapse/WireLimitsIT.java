package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.RawWebSocket;

/**
 * SYNAPSE wire robustness on one hub with the default 1 MiB frame limit (synapse-core §2.1, §6.2, §6.3):
 * number literals up to 4300 digits are relayed, longer ones refused as {@code Malformed JSON.} with the
 * socket kept; every message over the limit, single or fragmented, text or binary, up to 64 MiB, closes
 * with 1009 (never 1011); client-chosen names reach the hub log escaped. Every case also checks that the
 * hub logged no stack trace while it ran.
 */
class WireLimitsIT {

    private static final int MIB = 1024 * 1024;
    private static final int TEXT = 0x1;
    private static final int BINARY = 0x2;
    private static final int FIN = 0x80;
    /** The test side parses relayed frames too: Parsson's own default stops at 1100-character numbers. */
    private static final JsonReaderFactory READERS = Json.createReaderFactory(
            Map.of("org.eclipse.parsson.maxBigDecimalLength", 10_000));

    private static HubServer hub;
    private static ExecutorService writers;

    @BeforeAll
    static void start() {
        // the default hub shared with the other classes that only need a default hub (testing.md)
        hub = HubServer.shared();
        writers = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        if (writers != null) {
            writers.shutdownNow();
        }
    }

    private static JsonObject parse(String text) {
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** A raw client that has read its welcome and bound {@code name}. */
    private static RawWebSocket register(String name) throws IOException {
        RawWebSocket ws = RawWebSocket.open(hub.port(), 0);
        assertTrue(ws.upgraded(), ws.handshakeAnswer());
        ws.sendText(Json.createObjectBuilder().add("type", "heartbeat").add("sender", name).add("target", "System")
                .add("payload", "online").build().toString());
        next(ws, f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")));
        return ws;
    }

    /** The next frame matching {@code match}; fails if the hub closes first. */
    private static JsonObject next(RawWebSocket ws, Predicate<JsonObject> match) throws IOException {
        while (true) {
            String text = ws.readText();
            assertNotNull(text, "the hub closed the connection");
            JsonObject frame = parse(text);
            if (match.test(frame)) {
                return frame;
            }
        }
    }

    private static long logSize() throws IOException {
        return java.nio.file.Files.size(hub.logFile());
    }

    /** What the hub logged from byte {@code from} on (after a moment for the log to be flushed). */
    private static String logSince(long from) throws Exception {
        Thread.sleep(500);
        try (RandomAccessFile file = new RandomAccessFile(hub.logFile().toFile(), "r")) {
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void assertNoStackTrace(String log) {
        for (String line : log.split("\n")) {
            assertFalse(line.startsWith("\tat ") || line.contains("Exception:") || line.contains("Buffer overflow"),
                    () -> "the hub logged a failure:\n" + log);
        }
    }

    // --- long numbers (§6.2) -------------------------------------------------------------------------

    @Test
    void numberLiteralsUpToTheSpecBoundAreRelayedAndTheSenderStaysConnected() throws Exception {
        long logStart = logSize();
        try (RawWebSocket alice = register("wire/alice"); RawWebSocket bob = register("wire/bob")) {
            String digits = "7".repeat(4300);
            List<String> numbers = List.of("1".repeat(1101), "2".repeat(2500), digits, "-" + digits,
                    "0." + "3".repeat(1500), "4.5e-" + "0".repeat(1000) + "7");
            for (int i = 0; i < numbers.size(); i++) {
                String tag = "n" + i;
                alice.sendText("{\"type\":\"chat\",\"target\":\"wire/bob\",\"payload\":\"" + tag + "\",\"n\":" + numbers.get(i) + "}");
                JsonObject relayed = next(bob, f -> "chat".equals(f.getString("type", "")) && tag.equals(f.getString("payload", "")));
                assertEquals(new BigDecimal(numbers.get(i)), relayed.getJsonNumber("n").bigDecimalValue(),
                        "a " + numbers.get(i).length() + "-character number relayed exactly");
                // the sender's own copy proves its socket is still open
                next(alice, f -> "chat".equals(f.getString("type", "")) && tag.equals(f.getString("payload", "")));
            }
        }
        assertNoStackTrace(logSince(logStart));
    }

    @Test
    void longerNumberLiteralsAreMalformedJsonAndTheSocketStaysUsable() throws Exception {
        long logStart = logSize();
        try (RawWebSocket carol = register("wire/carol"); RawWebSocket dave = register("wire/dave")) {
            for (String number : List.of("9".repeat(4301), "-" + "9".repeat(5000), "1." + "0".repeat(4300))) {
                carol.sendText("{\"type\":\"chat\",\"target\":\"wire/dave\",\"payload\":\"x\",\"n\":" + number + "}");
                JsonObject error = next(carol, f -> "error".equals(f.getString("type", "")));
                assertEquals("Malformed JSON.", error.getString("payload"));
                assertEquals("all", error.getString("target"));
            }
            carol.sendText("{\"type\":\"chat\",\"target\":\"wire/dave\",\"payload\":\"still here\"}");
            next(dave, f -> "chat".equals(f.getString("type", "")) && "still here".equals(f.getString("payload", "")));
        }
        assertNoStackTrace(logSince(logStart));
    }

    // --- oversized messages (§2.1): 1009, never 1011 ------------------------------------------------------

    /** Something a client sends on a fresh socket. */
    @FunctionalInterface
    private interface Sending {
        void send(RawWebSocket ws) throws IOException;
    }

    /** Opens a socket, sends from another thread while reading, and returns how the hub closed it. */
    private static RawWebSocket.Close closeAfter(Sending sending) throws Exception {
        try (RawWebSocket ws = RawWebSocket.open(hub.port(), 0)) {
            assertTrue(ws.upgraded(), ws.handshakeAnswer());
            Future<?> writer = writers.submit(() -> {
                sending.send(ws);
                return null;
            });
            RawWebSocket.Close close = ws.awaitClose();
            writer.get(60, TimeUnit.SECONDS);
            return close;
        }
    }

    private static void assertTooBig(String what, Sending sending) throws Exception {
        long logStart = logSize();
        RawWebSocket.Close close = closeAfter(sending);
        assertNotNull(close, what + ": the hub closed without a close frame");
        assertEquals(1009, close.code(), what + ": " + close);
        assertEquals("message too big", close.reason(), what);
        assertNoStackTrace(logSince(logStart));
    }

    @Test
    void aFrameOfExactlyTheLimitIsRead() throws Exception {
        try (RawWebSocket erin = register("wire/erin")) {
            String head = "{\"type\":\"chat\",\"target\":\"wire/erin\",\"payload\":\"";
            String text = head + "e".repeat(MIB - head.length() - 2) + "\"}";
            assertEquals(MIB, text.getBytes(StandardCharsets.UTF_8).length);
            erin.sendText(text);
            JsonObject echo = next(erin, f -> "chat".equals(f.getString("type", "")));
            assertEquals(MIB - head.length() - 2, echo.getString("payload").length());
        }
    }

    @Test
    void singleTextFramesOverTheLimitClose1009() throws Exception {
        assertTooBig("text 1 MiB + 1", ws -> ws.streamFrame(FIN | TEXT, MIB + 1, (byte) 'a'));
        assertTooBig("text 4 MiB + 1", ws -> ws.streamFrame(FIN | TEXT, 4L * MIB + 1, (byte) 'a'));
        assertTooBig("text 16 MiB", ws -> ws.streamFrame(FIN | TEXT, 16L * MIB, (byte) 'a'));
        assertTooBig("text 64 MiB", ws -> ws.streamFrame(FIN | TEXT, 64L * MIB, (byte) 'a'));
    }

    @Test
    void singleBinaryFramesOverTheLimitClose1009() throws Exception {
        assertTooBig("binary 1 MiB + 1", ws -> ws.streamFrame(FIN | BINARY, MIB + 1, (byte) 'b'));
        assertTooBig("binary 4 MiB + 1", ws -> ws.streamFrame(FIN | BINARY, 4L * MIB + 1, (byte) 'b'));
        assertTooBig("binary 64 MiB", ws -> ws.streamFrame(FIN | BINARY, 64L * MIB, (byte) 'b'));
    }

    @Test
    void fragmentedMessagesOverTheLimitClose1009() throws Exception {
        assertTooBig("text fragments 512 KiB + 512 KiB + 1", ws -> {
            ws.streamFrame(TEXT, MIB / 2, (byte) 'c');
            ws.streamFrame(0, MIB / 2, (byte) 'c');
            ws.streamFrame(FIN, 1, (byte) 'c');
        });
        assertTooBig("binary fragments 1 MiB + 1", ws -> {
            ws.streamFrame(BINARY, MIB, (byte) 'd');
            ws.streamFrame(FIN, 1, (byte) 'd');
        });
        assertTooBig("text fragment of 4 MiB + 1", ws -> ws.streamFrame(TEXT, 4L * MIB + 1, (byte) 'e'));
        assertTooBig("text 16 MiB in 1 MiB fragments", ws -> fragments(ws, TEXT, 16));
        assertTooBig("binary 64 MiB in 1 MiB fragments", ws -> fragments(ws, BINARY, 64));
    }

    private static void fragments(RawWebSocket ws, int opcode, int mib) throws IOException {
        for (int i = 0; i < mib; i++) {
            int first = (i == 0 ? opcode : 0) | (i == mib - 1 ? FIN : 0);
            if (ws.streamFrame(first, MIB, (byte) 'f') < MIB) {
                return; // the hub closed the connection
            }
        }
    }

    // --- log escaping ---------------------------------------------------------------------------------

    @Test
    void clientChosenNamesReachTheLogEscaped() throws Exception {
        long logStart = logSize();
        String evil = "wire/evil\nFORGED-LOG-LINE: SEVERE\u0000end";
        try (RawWebSocket mallory = register(evil)) {
            // a long number, then a message over the limit: the two paths that logged the bound name
            mallory.sendText("{\"type\":\"chat\",\"target\":\"all\",\"payload\":\"m\",\"n\":" + "1".repeat(2000) + "}");
            Future<?> writer = writers.submit(() -> mallory.streamFrame(FIN | TEXT, 2L * MIB, (byte) 'm'));
            RawWebSocket.Close close = mallory.awaitClose();
            writer.get(60, TimeUnit.SECONDS);
            assertNotNull(close);
        }
        String log = logSince(logStart);
        List<String> forged = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.startsWith("FORGED-LOG-LINE")) {
                forged.add(line);
            }
        }
        assertTrue(forged.isEmpty(), () -> "a client name forged log lines: " + forged + "\n" + log);
        assertFalse(log.indexOf('\u0000') >= 0, () -> "a NUL byte reached the log:\n" + log);
        assertTrue(log.contains("wire/evil\\nFORGED-LOG-LINE: SEVERE\\u0000end"),
                () -> "the name is logged, escaped, with the 1009 close:\n" + log);
        assertNoStackTrace(log);
    }
}
