package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.support.RawWebSocket;
import org.switchboard.itests.support.SynapseClient;

/**
 * SIGTERM under load (chat, REDSYN sends, parked long polls, a client that stopped reading): the hub
 * exits within 10 s and keeps every message it accepted.
 */
class ShutdownIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String INBOX = "/v1/inbox/acme/general/joel/box";
    /** Fewer than hub.history-limit (10,000) minus the shouter's broadcasts, which share the history. */
    private static final int HISTORY_WINDOW = 8_000;

    private static Relay relay;

    @BeforeAll
    static void start() {
        relay = Relay.start();
    }

    @AfterAll
    static void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    @Test
    void sigtermUnderLoadExitsWithinTenSecondsAndLosesNothingAccepted() throws Exception {
        RedsynClient c = relay.client;
        String token = relay.personWithNode("joel@acme.test", "enterprise");
        assertEquals(201, c.post("/v1/orgs", token, obj("handle", "acme", "me", "joel")).status());
        assertEquals(201, c.put("/v1/agents/acme/general/joel/box", token, obj("listening", true)).status());

        AtomicBoolean running = new AtomicBoolean(true);
        Set<String> acceptedRedsyn = ConcurrentHashMap.newKeySet();
        List<String> receivedChats = new CopyOnWriteArrayList<>();
        List<Thread> load = new ArrayList<>();
        SynapseClient sink = SynapseClient.register(relay.hub.webSocketUri(), "shut/sink");
        // the sink records what the hub fanned out to it: fan-out happens after the journal commit,
        // so every chat it received was accepted and must be in the history after the restart
        load.add(started(() -> {
            while (running.get() || !sink.isClosed()) {
                try {
                    JsonObject f = sink.next(Duration.ofSeconds(2));
                    if ("chat".equals(f.getString("type", "")) && f.containsKey("client_msg_id")) {
                        receivedChats.add(f.getString("client_msg_id"));
                    }
                } catch (AssertionError | RuntimeException e) {
                    if (sink.isClosed()) {
                        return;
                    }
                }
            }
        }));
        for (int t = 0; t < 2; t++) {
            String name = "shut/talker" + t;
            load.add(started(() -> {
                try (SynapseClient talker = SynapseClient.register(relay.hub.webSocketUri(), name)) {
                    for (int i = 0; running.get() && !talker.isClosed(); i++) {
                        String id = name + "-" + i;
                        talker.send(SynapseClient.frame("chat", "shut/sink", id).add("client_msg_id", id));
                        if (i % 50 == 0) {
                            Thread.sleep(5); // let the sink keep up; the point is load, not a flood
                        }
                    }
                } catch (Exception | AssertionError e) {
                    // the hub went away mid-send
                }
            }));
        }
        for (int t = 0; t < 2; t++) {
            int thread = t;
            load.add(started(() -> {
                for (int i = 0; running.get(); i++) {
                    try {
                        Reply r = c.post("/v1/messages", token, request("acme/general/joel/cli", "box", "m" + thread + "-" + i));
                        if (r.status() == 201) {
                            acceptedRedsyn.add(r.json().getString("id"));
                        }
                    } catch (RuntimeException e) {
                        return; // connection refused or reset: the hub is stopping
                    }
                }
            }));
        }
        // long polls parked on an empty inbox, and a client that stopped reading while broadcasts pile up
        assertEquals(201, c.put("/v1/agents/acme/general/joel/idle", token, obj("listening", true)).status());
        for (int p = 0; p < 4; p++) {
            load.add(started(() -> {
                while (running.get()) {
                    try {
                        c.get("/v1/inbox/acme/general/joel/idle?wait=25", token);
                    } catch (RuntimeException e) {
                        return;
                    }
                }
            }));
        }
        RawWebSocket stalled = RawWebSocket.open(relay.hub.port(), 4096);
        stalled.sendText(SynapseClient.frame("heartbeat", "System", "online").add("sender", "shut/stalled").build().toString());
        load.add(started(() -> {
            try (SynapseClient shouter = SynapseClient.register(relay.hub.webSocketUri(), "shut/shouter")) {
                String big = "b".repeat(16 * 1024);
                while (running.get() && !shouter.isClosed()) {
                    shouter.send(SynapseClient.frame("chat", "all", big));
                    Thread.sleep(20);
                }
            } catch (Exception | AssertionError e) {
                // the hub went away
            }
        }));
        Thread.sleep(4000);
        assertFalse(acceptedRedsyn.isEmpty(), "REDSYN load is running");
        assertFalse(receivedChats.isEmpty(), "chat load is running");

        // if the hub is still alive 6 s after SIGTERM, SIGQUIT makes it print its threads to its log (the attach
        // mechanism of jcmd no longer answers once the JVM is shutting down)
        long pid = relay.hub.pid();
        AtomicBoolean dumped = new AtomicBoolean();
        Thread dumper = started(() -> {
            try {
                Thread.sleep(6000);
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).start().waitFor();
                    dumped.set(true);
                }
            } catch (Exception e) {
                // no dump; the timing below still decides
            }
        });
        Duration took = relay.hub.terminate(Duration.ofSeconds(60));
        dumper.join(30_000);
        if (dumped.get()) {
            System.out.println("ShutdownIT: hub still running 6 s after SIGTERM; its threads are in " + relay.hub.logFile());
        }
        running.set(false);
        for (Thread thread : load) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        sink.close();
        stalled.close();
        System.out.printf("ShutdownIT: SIGTERM to exit %d ms under load (%d REDSYN messages accepted, %d chats fanned out)%n",
                took.toMillis(), acceptedRedsyn.size(), receivedChats.size());
        assertTrue(took.compareTo(BOUND) <= 0, "SIGTERM took " + took.toMillis() + " ms to stop the hub (bound " + BOUND + ")");
        // the hub's own threads end before the persistence unit closes: none dies on a closed EntityManager
        String stopLog = java.nio.file.Files.readString(relay.hub.logFile());
        assertFalse(stopLog.contains("Exception in thread"), "a thread died with an exception during the stop: "
                + relay.hub.logFile());

        relay.hub.restart();
        Set<String> delivered = new HashSet<>();
        for (int round = 0; round < 400 && !delivered.containsAll(acceptedRedsyn); round++) {
            JsonArray items = c.get(INBOX + "?wait=2", token).items();
            List<String> ids = items.stream().map(v -> v.asJsonObject().getString("id")).toList();
            delivered.addAll(ids);
            if (!ids.isEmpty()) {
                assertEquals(200, c.post(INBOX + "/ack", token, obj("ids", ids)).status());
            }
        }
        Set<String> missing = new LinkedHashSet<>(acceptedRedsyn);
        missing.removeAll(delivered);
        assertTrue(missing.isEmpty(), missing.size() + " of " + acceptedRedsyn.size()
                + " accepted REDSYN messages lost, e.g. " + missing.stream().limit(5).toList());

        // chats: the last one fanned out and a spread before it, each looked up by its client_msg_id. Only the
        // newest HISTORY_WINDOW chats are probed: chat history keeps the newest hub.history-limit (10,000) entries,
        // and on a fast machine the talkers send more than that before SIGTERM
        List<String> window = receivedChats.subList(Math.max(0, receivedChats.size() - HISTORY_WINDOW), receivedChats.size());
        List<String> probes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            probes.add(window.get(i * (window.size() - 1) / 19));
        }
        try (SynapseClient auditor = SynapseClient.register(relay.hub.webSocketUri(), "shut/auditor")) {
            for (String id : new LinkedHashSet<>(probes)) {
                auditor.send(SynapseClient.frame("history_request", "System", "history")
                        .add("history_target", "shut/sink").add("history_client_msg_id", id));
                JsonArray history = auditor.expectType("history_snapshot").getJsonArray("history");
                assertEquals(1, history.size(), "fanned-out chat " + id + " is not in the history after the restart");
                assertEquals(id, history.getJsonObject(0).getString("payload", ""));
            }
        }
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body, "shutdown-load");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
