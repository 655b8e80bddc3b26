package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HubServer;

/** The hub as the README starts it: ready with its database and broker, loopback only, clean stop. */
class HubLaunchIT {

    private static HubServer hub;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        // the default hub shared with the other classes that only need a default hub (testing.md)
        hub = HubServer.shared();
    }

    @Test
    void readinessReportsDatabaseAndBrokerUp() throws Exception {
        HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(hub.http("/mphealth/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode());
        String body = ready.body().replace(" ", "");
        assertTrue(body.contains("\"status\":\"UP\""), body);
        assertTrue(body.contains("\"database\":\"true\""), body);
        assertTrue(body.contains("\"broker\":\"true\""), body);
        HttpResponse<String> live = HTTP.send(HttpRequest.newBuilder(hub.http("/mphealth/live")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode());
    }

    @Test
    void listensOnLoopbackOnly() throws Exception {
        List<String> sockets = listeningSocketsOf(hub.pid());
        assertFalse(sockets.isEmpty(), "found no listening socket for the hub process");
        for (String local : sockets) {
            assertTrue(local.startsWith("127.") || local.startsWith("[::ffff:127.") || local.startsWith("[::1]"),
                    "hub listens beyond loopback: " + local + " (all: " + sockets + ")");
        }
    }

    @Test
    void cleartextHttp2UpgradeIsDeclinedAndAnsweredOverHttp11() throws IOException {
        // run-hub switches h2c off: the JDK client's default upgrade offer must get a plain HTTP/1.1 answer
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), hub.port())) {
            socket.setSoTimeout(10_000);
            String request = "GET /mphealth/ready HTTP/1.1\r\nHost: 127.0.0.1:" + hub.port() + "\r\n"
                    + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n"
                    + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertTrue(statusLine != null && statusLine.startsWith("HTTP/1.1 "), "status line: " + statusLine);
            assertFalse(statusLine.startsWith("HTTP/1.1 101"), "h2c upgrade accepted: " + statusLine);
        }
    }

    @Test
    void dataLivesInTheConfiguredDirectory() throws IOException {
        try (var files = Files.walk(hub.dataDir())) {
            List<String> names = files.map(p -> hub.dataDir().relativize(p).toString()).collect(Collectors.toList());
            assertTrue(names.stream().anyMatch(n -> n.startsWith("db/") && n.endsWith(".mv.db")), "no H2 file: " + names);
            assertTrue(names.stream().anyMatch(n -> n.startsWith("broker/")), "no broker store: " + names);
        }
    }

    @Test
    void bootsFromTheClassDataSharingArchive() throws IOException {
        // run-hub records the archive on the run's first start (HUB_CDS_ARCHIVE); every hub after maps it
        Path archive = HubServer.cdsArchive().orElse(null);
        Assumptions.assumeTrue(archive != null && HubServer.database().equals("h2"), "class-data sharing is off");
        assertTrue(Files.size(archive) > 0, "no archive at " + archive);
        String maps = Files.readString(Path.of("/proc", Long.toString(hub.pid()), "maps"));
        assertTrue(maps.contains(archive.toString()), "the hub JVM did not map " + archive);
    }

    @Test
    void aHubAskedToRecordWithFlightRecorderBootsWithoutTheArchive() throws Exception {
        // With the archive mapped, this JDK crashed the JVM (SIGSEGV) as soon as Flight Recorder's class hooks
        // met a class from it, during Payara's boot; run-hub leaves the archive out for such a hub.
        Path archive = HubServer.cdsArchive().orElse(null);
        Assumptions.assumeTrue(archive != null && HubServer.database().equals("h2"), "class-data sharing is off");
        Path recording = Files.createTempDirectory(Path.of("target"), "flight-").toAbsolutePath().resolve("hub.jfr");
        HubServer recorded = HubServer.start(java.util.Map.of("HUB_JAVA_OPTS", HubServer.TEST_JVM
                + " -XX:StartFlightRecording=filename=" + recording + ",dumponexit=true"));
        try {
            String log = Files.readString(recorded.logFile());
            assertTrue(log.contains("run-hub: HUB_JAVA_OPTS starts Flight Recorder"), "run-hub says why it leaves the archive out");
            String maps = Files.readString(Path.of("/proc", Long.toString(recorded.pid()), "maps"));
            assertFalse(maps.contains(archive.toString()), "the recording hub mapped " + archive);
        } finally {
            recorded.stop();
        }
        assertTrue(Files.size(recording) > 0, "the recording was written at exit: " + recording);
    }

    /** Local addresses of the TCP sockets the process listens on, from {@code ss}. */
    private static List<String> listeningSocketsOf(long pid) throws Exception {
        Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        ss.waitFor(10, TimeUnit.SECONDS);
        List<String> locals = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.contains("pid=" + pid + ",")) {
                String[] columns = line.trim().split("\\s+");
                locals.add(columns[3]);
            }
        }
        return locals;
    }
}
