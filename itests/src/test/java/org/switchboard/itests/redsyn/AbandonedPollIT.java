package org.switchboard.itests.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * Long polls whose clients went away (issue 14, defect 2): they are released at once, their sockets
 * and file descriptors freed, and they never take a message meant for a live taker. On the shared
 * REDSYN hub ({@link Relay#shared()}); the descriptor counts are taken relative to each test's start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AbandonedPollIT {

    private static final String CLI = "pollco/general/ana/cli";

    private Relay relay;
    private RedsynClient c;
    private String joel;
    private String ana;

    @BeforeAll
    void start() {
        relay = Relay.shared(); // names under "pollco", unique to this class
        c = relay.client;
        joel = relay.personWithNode("joel@pollco.test", null);
        ana = relay.personWithNode("ana@pollco.test", null);
        assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "pollco", "me", "joel")).status());
        c.post("/v1/orgs/pollco/invites", joel, obj("email", "ana@pollco.test", "team", "general"));
        assertEquals(201, c.post("/v1/orgs/pollco/join", ana, obj("me", "ana")).status());
    }

    @AfterAll
    void stop() {
        if (relay != null) {
            relay.stop();
        }
    }

    private void announce(String address) {
        Reply r = c.put("/v1/agents/" + address, joel, obj("listening", true));
        assertTrue(r.status() == 200 || r.status() == 201, r.toString());
    }

    /** Long polls on raw sockets, each sent in full; the caller closes them to abandon the polls. */
    private List<Socket> openPolls(String address, int count) throws IOException {
        String head = "GET /redsyn/v1/inbox/" + address + "?wait=25&lease=900 HTTP/1.1\r\nHost: 127.0.0.1:" + relay.hub.port()
                + "\r\nAuthorization: Bearer " + joel + "\r\nAccept: application/json\r\n\r\n";
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", relay.hub.port()), 5_000);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            sockets.add(s);
        }
        return sockets;
    }

    /** Closes every socket: half of them with a FIN (a client that closes), half with a RST (one that dies). */
    private static void abandon(List<Socket> sockets) throws IOException {
        for (int i = 0; i < sockets.size(); i++) {
            Socket s = sockets.get(i);
            if (i % 2 == 1) {
                s.setSoLinger(true, 0);
            }
            s.close();
        }
    }

    @Test
    void abandonedPollsNeverTakeMessagesMeantForALiveTaker() throws Exception {
        String agent = "pollco/general/joel/busy";
        announce(agent);
        abandon(openPolls(agent, 5), 500);

        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Reply r = c.post("/v1/messages", ana, request(CLI, agent, "job " + i));
            assertEquals(201, r.status(), r.toString());
            sent.add(r.json().getString("id"));
        }

        long start = System.nanoTime();
        Map<String, Integer> attempts = new HashMap<>();
        while (attempts.size() < sent.size() && System.nanoTime() - start < 12_000_000_000L) {
            Reply r = c.get("/v1/inbox/" + agent + "?wait=4&lease=900", joel);
            assertEquals(200, r.status(), r.toString());
            for (JsonObject e : r.items().getValuesAs(JsonObject.class)) {
                attempts.put(e.getString("id"), e.getInt("attempts"));
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("live taker: %d of %d messages in %d ms, attempts %s%n", attempts.size(), sent.size(), millis, attempts);
        assertEquals(sent.size(), attempts.size(), "the live taker gets every message; got " + attempts + " in " + millis + " ms");
        for (String id : sent) {
            assertEquals(1, attempts.get(id), "no dead poll counted an attempt on " + id);
        }
        assertTrue(millis < 5_000, "promptly, well under the 25 s wait: " + millis + " ms");
        assertEquals(200, c.post("/v1/inbox/" + agent + "/ack", joel, obj("ids", sent)).status());
    }

    @Test
    void aLivePollBesideDeadOnesStillWaitsItsTimeAndThenGetsAMessage() throws Exception {
        String agent = "pollco/general/joel/patient";
        announce(agent);
        CompletableFuture<Reply> live = CompletableFuture.supplyAsync(() -> c.get("/v1/inbox/" + agent + "?wait=3", joel));
        abandon(openPolls(agent, 4), 500);
        Reply empty = live.get();
        assertEquals(200, empty.status(), empty.toString());
        assertEquals(0, empty.items().size(), "a live poll is not released early: " + empty);

        CompletableFuture<Reply> waiting = CompletableFuture.supplyAsync(() -> c.get("/v1/inbox/" + agent + "?wait=20", joel));
        Thread.sleep(1_000); // parked beside nothing now: the dead ones are gone
        Reply r = c.post("/v1/messages", ana, request(CLI, agent, "for the live one"));
        assertEquals(201, r.status(), r.toString());
        JsonArray items = waiting.get().items();
        assertEquals(1, items.size(), items.toString());
        assertEquals(1, items.getJsonObject(0).getInt("attempts"));
    }

    @Test
    void oneAbandonedPollIsNoticedAtOnce() throws Exception {
        String agent = "pollco/general/joel/single";
        announce(agent);
        List<Socket> one = openPolls(agent, 1);
        Set<Integer> ports = clientPorts(one);
        awaitHubSockets(ports, 1);
        Thread.sleep(300); // parked
        abandon(one);
        long millis = awaitHubSocketsGone(ports, -1, 10_000);
        System.out.printf("one abandoned poll: the hub closed its socket %d ms after the client closed it%n", millis);
        assertTrue(millis >= 0 && millis < 2_000, "noticed at once: " + millis + " ms");
    }

    @Test
    void manyAbandonedPollsFreeTheirSocketsAtOnce() throws Exception {
        String agent = "pollco/general/joel/crowd";
        announce(agent);
        int before = openFds();
        List<Socket> sockets = openPolls(agent, 200);
        Set<Integer> ports = clientPorts(sockets);
        awaitFds(before + 195); // the hub has accepted (and so parked) them
        Thread.sleep(500);
        int parkedFds = openFds();
        System.out.printf("fds: %d before, %d with 200 polls parked; threads %d%n", before, parkedFds, threads());
        abandon(sockets);
        // a reset socket leaves the table at once but keeps its descriptor until the hub closes it: count both
        long millis = awaitHubSocketsGone(ports, before + 10, 25_000);
        System.out.printf("200 abandoned polls: the hub closed their sockets in %d ms (CLOSE-WAIT %d, fds %d, was %d, threads %d)%n",
                millis, closeWaitSockets(), openFds(), before, threads());
        assertTrue(millis >= 0 && millis < 5_000, "the dead polls' sockets and descriptors are freed within seconds, not at the end of "
                + "the 25 s wait: " + millis + " ms; " + openFds() + " descriptors open, " + parkedFds + " while parked");

        Reply r = c.post("/v1/messages", ana, request(CLI, agent, "after the crowd left"));
        assertEquals(201, r.status(), r.toString());
        JsonArray items = c.get("/v1/inbox/" + agent + "?wait=5", joel).items();
        assertEquals(1, items.size(), items.toString());
        assertEquals(1, items.getJsonObject(0).getInt("attempts"));
    }

    private static Set<Integer> clientPorts(List<Socket> sockets) {
        Set<Integer> ports = new HashSet<>();
        sockets.forEach(s -> ports.add(s.getLocalPort()));
        return ports;
    }

    /** Waits (up to 20 s) until the hub has {@code atLeast} descriptors open. */
    private void awaitFds(int atLeast) throws Exception {
        long start = System.nanoTime();
        while (openFds() < atLeast && System.nanoTime() - start < 20_000_000_000L) {
            Thread.sleep(20);
        }
    }

    /** Waits (up to 20 s) until the hub holds {@code count} sockets to these client ports (accepted or not). */
    private void awaitHubSockets(Set<Integer> clientPorts, int count) throws Exception {
        long start = System.nanoTime();
        while (hubSockets(clientPorts) < count && System.nanoTime() - start < 20_000_000_000L) {
            Thread.sleep(20);
        }
    }

    /**
     * Milliseconds until the hub holds no socket to these client ports any more and (unless negative)
     * at most {@code fdsAtMost} descriptors, or -1 after {@code limitMillis}; prints the timeline.
     */
    private long awaitHubSocketsGone(Set<Integer> clientPorts, int fdsAtMost, long limitMillis) throws Exception {
        long start = System.nanoTime();
        StringBuilder timeline = new StringBuilder();
        long lastSample = -1_000;
        while (true) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            int left = hubSockets(clientPorts);
            int fds = fdsAtMost < 0 ? -1 : openFds();
            if (millis - lastSample >= 250) {
                timeline.append(String.format(" %dms:%d/fds=%d", millis, left, fds));
                lastSample = millis;
            }
            if (left == 0 && fds <= fdsAtMost) {
                System.out.println("hub sockets left:" + timeline + " " + millis + "ms:0");
                return millis;
            }
            if (millis > limitMillis) {
                System.out.println("hub sockets left:" + timeline);
                return -1;
            }
            Thread.sleep(5);
        }
    }

    private static void abandon(List<Socket> sockets, long afterMillis) throws Exception {
        Thread.sleep(afterMillis);
        abandon(sockets);
    }

    private int openFds() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(relay.hub.pid()), "fd"))) {
            return (int) fds.count();
        }
    }

    private int threads() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(relay.hub.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring(8).trim());
            }
        }
        return -1;
    }

    /** Sockets on the hub's port in CLOSE-WAIT (the client closed, the hub has not). */
    private int closeWaitSockets() {
        int count = 0;
        for (String[] f : hubSide()) {
            if (f[3].equals("08")) {
                count++;
            }
        }
        return count;
    }

    /** The hub's sockets (any state but TIME-WAIT) whose peer is one of these client ports. */
    private int hubSockets(Set<Integer> clientPorts) {
        int count = 0;
        for (String[] f : hubSide()) {
            int peer = Integer.parseInt(f[2].substring(f[2].lastIndexOf(':') + 1), 16);
            if (clientPorts.contains(peer) && !f[3].equals("06")) {
                count++;
            }
        }
        return count;
    }

    /** Rows of /proc/net/tcp and tcp6 whose local port is the hub's (fields: sl, local, remote, state, ...). */
    private List<String[]> hubSide() {
        String port = String.format(":%04X", relay.hub.port());
        List<String[]> rows = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(port)) {
                        rows.add(f);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }
}
