package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.support.SynapseClient;

/**
 * The container-shortcut seam on the pinned Payara Micro (issue 15): with the default
 * {@code switchboard.container-shortcuts=auto} every shortcut engages — after real SYNAPSE and REDSYN
 * traffic, so one that passed its start-up probe but fails on a real connection shows too — as the
 * start-up line and {@code /metrics} report; with {@code off} all report 0 and chat and REDSYN
 * send/take still work on the portable path. Two hubs, each started only for its case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContainerShortcutsIT {

    /** Every shortcut, by its metric name. */
    private static final List<String> SHORTCUTS = List.of("idle-timer-bypass", "raw-frame-writes", "write-buffer-size",
            "quiet-context-loader", "remote-address", "long-poll-channel", "upgrade-frame-gate",
            "upgrade-handler-direct", "container-stop-notice");
    /** Payara Server only: on Payara Micro the JVM's stop signal is the first notice (PayaraServerDeploymentIT covers it). */
    private static final String SERVER_ONLY = "container-stop-notice";
    private static final Pattern METRIC = Pattern.compile("^switchboard_container_shortcut_active\\{name=\"([a-z-]+)\"} ([01])$",
            Pattern.MULTILINE);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Relay auto;
    private Relay off;

    @AfterAll
    void stop() {
        for (Relay relay : new Relay[] {auto, off}) {
            if (relay != null) {
                relay.stop();
            }
        }
    }

    @Test
    void onPayaraEveryShortcutEngagesAndSaysSo() throws Exception {
        auto = Relay.start();
        traffic(auto, "auto");

        Map<String, String> metrics = shortcutMetrics(auto);
        String line = startLine(auto);
        assertEquals(SHORTCUTS.stream().sorted().toList(), List.copyOf(metrics.keySet()), "one line per shortcut");
        metrics.forEach((name, value) -> assertEquals(SERVER_ONLY.equals(name) ? "0" : "1", value,
                name + " on Payara Micro; start-up line: " + line));
        for (String name : SHORTCUTS) {
            assertTrue(line.contains(SERVER_ONLY.equals(name)
                    ? name + "=off (Payara Micro: the JVM's stop signal comes first)" : name + "=on"), line);
        }
        String log = Files.readString(auto.hub.logFile());
        assertTrue(!log.contains("did not engage"), "no shortcut failed on a real connection: "
                + log.lines().filter(l -> l.contains("did not engage")).toList());
    }

    @Test
    void offTakesThePortablePathAndTheHubStillServes() throws Exception {
        off = Relay.start("SWITCHBOARD_CONTAINER_SHORTCUTS", "off");
        traffic(off, "off");

        Map<String, String> metrics = shortcutMetrics(off);
        assertEquals(SHORTCUTS.stream().sorted().toList(), List.copyOf(metrics.keySet()), "one line per shortcut");
        metrics.forEach((name, value) -> assertEquals("0", value, name + " is off"));
        String line = startLine(off);
        for (String name : SHORTCUTS) {
            assertTrue(line.contains(name + "=off (switchboard.container-shortcuts=off)"), line);
        }
    }

    /** A SYNAPSE chat round trip and a REDSYN send taken by a parked long poll; fails if either does not work. */
    private static void traffic(Relay relay, String tag) throws Exception {
        try (SynapseClient ana = SynapseClient.register(relay.hub.webSocketUri(), "seam/ana");
             SynapseClient bo = SynapseClient.register(relay.hub.webSocketUri(), "seam/bo")) {
            ana.send(SynapseClient.frame("chat", "seam/bo", "hello " + tag));
            bo.expect(f -> "chat".equals(f.getString("type", "")) && ("hello " + tag).equals(f.getString("payload", "")),
                    Duration.ofSeconds(10));
            bo.send(SynapseClient.frame("chat", "all", "back " + tag));
            ana.expect(f -> "chat".equals(f.getString("type", "")) && ("back " + tag).equals(f.getString("payload", "")),
                    Duration.ofSeconds(10));
        }
        RedsynClient c = relay.client;
        String joel = relay.personWithNode("joel@acme.test", null);
        String ana = relay.personWithNode("ana@acme.test", null);
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "acme", "me", "joel")).status());
        c.post("/v1/orgs/acme/invites", joel, obj("email", "ana@acme.test", "team", "general"));
        assertEquals(201, c.post("/v1/orgs/acme/join", ana, obj("me", "ana")).status());
        String agent = "acme/general/joel/seam";
        Reply announced = c.put("/v1/agents/" + agent, joel, obj("listening", true));
        assertTrue(announced.status() == 200 || announced.status() == 201, announced.toString());
        CompletableFuture<Reply> poll = CompletableFuture.supplyAsync(() -> c.get("/v1/inbox/" + agent + "?wait=20", joel));
        Thread.sleep(1_000); // parked (watched on its channel where the shortcut is on)
        Reply sent = c.post("/v1/messages", ana, request("acme/general/ana/cli", agent, "via " + tag));
        assertEquals(201, sent.status(), sent.toString());
        Reply taken = poll.get();
        assertEquals(200, taken.status(), taken.toString());
        JsonArray items = taken.items();
        assertEquals(1, items.size(), items.toString());
        assertEquals(sent.json().getString("id"), items.getJsonObject(0).getString("id"));
    }

    private static Map<String, String> shortcutMetrics(Relay relay) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(relay.hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("# TYPE switchboard_container_shortcut_active gauge\n"), r.body());
        Map<String, String> values = new TreeMap<>();
        Matcher m = METRIC.matcher(r.body());
        while (m.find()) {
            values.put(m.group(1), m.group(2));
        }
        return values;
    }

    /** The one INFO line naming each shortcut and whether it engaged. */
    private static String startLine(Relay relay) throws Exception {
        List<String> lines = Files.readAllLines(relay.hub.logFile()).stream()
                .filter(l -> l.contains("container shortcuts (switchboard.container-shortcuts=")).toList();
        assertEquals(1, lines.size(), "one start-up line: " + lines);
        return lines.get(0);
    }
}
