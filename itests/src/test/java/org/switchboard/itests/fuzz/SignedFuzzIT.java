package org.switchboard.itests.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.support.HmacSigner;
import org.switchboard.itests.support.HubLog;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Seeded fuzz of the signed verbs (synapse-advanced §6.3) on ONE {@code paranoid} hub (token, HMAC key
 * file and ACL policy written 0600 by the test, TLS declared as terminated by a proxy). An attacker
 * that holds a connect token, its own HMAC key and ACL grants for the claim family sends
 * {@code -Dfuzz.signed-count} (default 10,000) signed-verb frames, each with a broken {@code auth}:
 * missing, mistyped, truncated, wrong kid, revoked kid, a foreign key, a wrong secret, a stale
 * timestamp, a bad sequence, a replayed nonce, a MAC over another frame or a frame changed after
 * signing, plus random fields; it also sends chat, board writes, delivery requests and capability
 * cards, which are not in the signed set and which its ACL grants do not cover. Every frame's refusal
 * must be the typed {@code error} with the §6.3 result string the defect calls for (ACL refusals:
 * {@code acl_decision}). Correctly signed claim/release pairs and replays from an authorised client
 * run in between as controls. Afterwards the operator console's claims, board, roster, mailbox and
 * journal sequence show only the controls' changes; no connection was closed (so no 1011), the
 * monitor (a SYNAPSE client, {@code /health}) kept working, and the hub log holds no stack trace.
 * {@code -Dfuzz.seed=} replays a run.
 */
class SignedFuzzIT {

    private static final long SEED = Long.getLong("fuzz.seed", System.currentTimeMillis());
    /** 10,000 took 22 s (54 s with the hub's start) at load average 5.5 on the 2-core machine, inside the 90 s budget. */
    private static final int COUNT = Integer.getInteger("fuzz.signed-count", 10_000);
    private static final int BATCH = 50;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long WINDOW_SECONDS = 300;

    private static final String TOKEN = "signed-fuzz-connect-t0ken-" + Long.toHexString(SEED);
    private static final String OPERATOR_TOKEN = "signed-fuzz-operator-" + Long.toHexString(~SEED);
    private static final String MALLORY = "fz/mallory";
    private static final String ALICE = "fz/alice";
    private static final String MONITOR = "mon/watch";
    private static final HmacSigner MALLORY_KEY = new HmacSigner("k-mallory", "mallory-hmac-secret-4c1d");
    private static final HmacSigner MALLORY_OLD = new HmacSigner("k-mallory-old", "mallory-revoked-secret-9e0b");
    private static final HmacSigner ALICE_KEY = new HmacSigner("k-alice", "alice-hmac-secret-b7a2");
    private static final List<String> HELD = List.of("fz-held-0", "fz-held-1", "fz-held-2", "fz-held-3");
    // HTTP/1.1 as the other ITs: a POST offering an h2c upgrade never gets its body (Grizzly), a 500 after a timeout
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static HubServer hub;
    private static String cookie;

    private final Map<String, List<String>> failures = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failureCounts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> results = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        System.out.println("SignedFuzzIT seed " + SEED + " count " + COUNT + " (replay with -Dfuzz.seed=" + SEED + ")");
        Path dir = Path.of(System.getProperty("hub.workDir", "target/hubs")).resolve("signed-fuzz-" + ProcessHandle.current().pid());
        Files.createDirectories(dir);
        Path keys = ownerOnly(dir.resolve("keys.json"), "{\"keys\":["
                + key(MALLORY_KEY, MALLORY, false) + "," + key(MALLORY_OLD, MALLORY, true) + "," + key(ALICE_KEY, ALICE, false) + "]}");
        // the attacker holds every grant the signed verbs need: only message authentication stands in its way
        Path acl = ownerOnly(dir.resolve("acl.json"), "{\"rules\":["
                + rule("claim", "claim") + "," + rule("claim", "path") + "," + rule("release", "claim") + ","
                + rule("board", "resource") + "]}");
        hub = HubServer.start(HubServer.env("HUB_POSTURE", "paranoid", "HUB_TLS_TERMINATED_BY_PROXY", "true",
                "HUB_TOKEN", TOKEN, "HUB_MESSAGE_AUTH_KEY_FILE", keys.toString(), "HUB_ACL_POLICY", acl.toString(),
                // a window wide enough that a replayed frame is refused as a replay, not for its age
                "HUB_MESSAGE_AUTH_WINDOW_SECONDS", Long.toString(WINDOW_SECONDS),
                // paranoid turns the ingress quota on; the fuzz needs more than 100 frames a minute
                "HUB_INGRESS_QUOTA_MAX_EVENTS", "10000000", "HUB_INGRESS_QUOTA_MAX_BYTES", "10000000000",
                "SWITCHBOARD_OPERATOR_TOKEN", OPERATOR_TOKEN));
        HttpResponse<String> login = HTTP.send(HttpRequest.newBuilder(hub.http("/console/api/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"" + OPERATOR_TOKEN + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, login.statusCode(), login.body());
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        cookie = setCookie.substring(0, setCookie.indexOf(';'));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static Path ownerOnly(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static String key(HmacSigner key, String sender, boolean revoked) {
        return "{\"kid\":\"" + key.kid() + "\",\"secret\":\"" + key.secret() + "\",\"senders\":[\"" + sender + "\"]"
                + (revoked ? ",\"revoked\":true}" : "}");
    }

    private static String rule(String permission, String kind) {
        return "{\"permission\":\"" + permission + "\",\"target_kind\":\"" + kind + "\",\"target_pattern\":\"*\",\"namespace\":\"fz\"}";
    }

    /** Registers on the secured hub: the first frame carries the token, then welcome, then the own presence. */
    private static SynapseClient register(String name) {
        SynapseClient client = SynapseClient.connect(hub.webSocketUri(), name);
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN));
        client.expectType("welcome");
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    // ------------------------------------------------------------------ the run

    @Test
    void unauthenticatedSignedVerbsAreRefusedWithTheirResultAndChangeNothing() throws Exception {
        long logStart = Files.size(hub.logFile());
        Random random = new Random(SEED);
        try (SynapseClient mallory = register(MALLORY); SynapseClient alice = register(ALICE)) {
            // what mallory may legitimately hold: a forged release or update of these would show
            List<JsonObject> accepted = new ArrayList<>();
            for (String task : HELD) {
                JsonObject claim = MALLORY_KEY.sign(claim(task, "fz/held/" + task), MALLORY);
                mallory.sendRaw(claim.toString());
                mallory.expect(f -> "claim_granted".equals(f.getString("type", "")) && task.equals(f.getString("task_id", "")), WAIT);
                accepted.add(claim);
            }
            long acceptedAt = System.currentTimeMillis() / 1000;

            // how many journal rows one control pair writes, measured while nothing else runs
            long before = lastSeq();
            Control control = new Control(alice);
            control.pair();
            long perPair = lastSeq() - before;
            assertTrue(perPair > 0, "a control pair writes journal rows");

            SynapseClient watcher = register(MONITOR); // before the baseline: the roster must not change after it
            Snapshot baseline = snapshot();
            long seqBefore = lastSeq();
            int pairsBefore = control.pairs;

            AtomicBoolean fuzzing = new AtomicBoolean(true);
            AtomicInteger monitorRounds = new AtomicInteger();
            Thread monitor = new Thread(() -> monitor(watcher, fuzzing, monitorRounds), "signed-fuzz-monitor");
            monitor.start();
            Generator generator = new Generator(random, accepted, acceptedAt);
            long started = System.nanoTime();
            int sent = 0;
            int batch = 0;
            long controlNanos = 0;
            try {
                while (sent < COUNT) {
                    int size = Math.min(BATCH, COUNT - sent);
                    List<Case> cases = new ArrayList<>(size);
                    for (int i = 0; i < size; i++) {
                        cases.add(generator.next());
                    }
                    runBatch(mallory, cases, batch++);
                    sent += size;
                    long t0 = System.nanoTime();
                    try {
                        control.pair();
                        if (batch % 4 == 0) {
                            control.replay();
                        }
                    } catch (AssertionError e) {
                        // the authorised client's own work went wrong: report it with the rest, stop fuzzing
                        fail("a control was not answered as expected", "after batch " + batch + ": " + e.getMessage());
                        break;
                    }
                    controlNanos += System.nanoTime() - t0;
                    if (mallory.isClosed() || alice.isClosed()) {
                        fail("a connection was closed", "mallory " + mallory.isClosed() + " (" + mallory.closeReason()
                                + "), alice " + alice.isClosed() + " (" + alice.closeReason() + ")");
                        break;
                    }
                }
            } finally {
                fuzzing.set(false);
                monitor.join();
            }
            double seconds = (System.nanoTime() - started) / 1e9;

            Snapshot after = snapshot();
            long seqAfter = lastSeq();
            int pairs = control.pairs - pairsBefore;
            scanLog(logStart);

            StringBuilder report = new StringBuilder();
            report.append(String.format("SignedFuzzIT seed %d: %d attacker frames in %.1f s (%.0f/s), %d control pairs"
                    + " and %d control replays (%.1f s of it), %d monitor rounds; load average %s%n", SEED, sent, seconds,
                    sent / seconds, pairs, control.replays, controlNanos / 1e9, monitorRounds.get(), loadAverage()));
            report.append("  refusals by result: ").append(new TreeMap<>(results)).append('\n');
            report.append(String.format("  journal: last seq %d -> %d, %d rows per control pair%n", seqBefore, seqAfter, perPair));
            new TreeMap<>(failures).forEach((category, examples) -> {
                report.append("  FAIL ").append(category).append(" x").append(failureCounts.get(category)).append('\n');
                examples.forEach(e -> report.append("      ").append(e).append('\n'));
            });
            System.out.print(report);

            assertEquals(baseline.claims(), after.claims(), "the claim table changed\n" + report);
            assertEquals(baseline.board(), after.board(), "the board changed\n" + report);
            assertEquals(baseline.roster(), after.roster(), "the roster changed\n" + report);
            assertEquals(baseline.mailbox(), after.mailbox(), "the mailboxes changed\n" + report);
            assertEquals(seqBefore + pairs * perPair, seqAfter, "journal rows beyond the controls'\n" + report);
            assertEquals(COUNT, sent, report.toString());
            assertTrue(monitorRounds.get() > 0, "the monitor never ran");
            assertTrue(failures.isEmpty(), report.toString());
            assertTrue(!mallory.isClosed() && !alice.isClosed() && !watcher.isClosed(), "no connection is closed");
            watcher.close();
        }
    }

    /** Sends the cases and a marker, then checks the refusals that arrived before the marker's answer, in order. */
    private void runBatch(SynapseClient mallory, List<Case> cases, int batch) {
        String marker = "signed_fuzz_marker_" + batch;
        for (Case c : cases) {
            mallory.sendRaw(c.text());
        }
        mallory.sendRaw(Json.createObjectBuilder().add("type", marker).add("sender", MALLORY).add("target", "System")
                .add("payload", "m").build().toString());
        List<JsonObject> errors = new ArrayList<>();
        while (true) {
            JsonObject f;
            try {
                f = mallory.next(WAIT);
            } catch (AssertionError | RuntimeException e) {
                fail("no answer to the batch marker", "batch " + batch + ": " + e);
                return;
            }
            String type = f.getString("type", "");
            if ("error".equals(type) && f.toString().contains(marker)) {
                break;
            }
            if ("error".equals(type)) {
                errors.add(f);
            } else if (MALLORY.equals(f.getString("owner", "")) || MALLORY.equals(f.getString("sender", ""))) {
                fail("an attacker frame was acted on: " + type, preview(f.toString()));
            }
        }
        if (errors.size() != cases.size()) {
            fail("refusal count differs from frame count", "batch " + batch + ": " + cases.size() + " frames, "
                    + errors.size() + " errors: " + preview(errors.toString()));
            return;
        }
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            JsonObject error = errors.get(i);
            if (!MALLORY.equals(error.getString("target", ""))) {
                fail("a refusal is not private", c.kind() + ": " + preview(error.toString()));
            }
            if ("acl".equals(c.expected())) {
                count(error.containsKey("acl_decision") ? "acl" : "?");
                if (!error.containsKey("acl_decision")) {
                    fail("expected an ACL refusal [" + c.kind() + "]", preview(c.text()) + " -> " + preview(error.toString()));
                }
                continue;
            }
            String result = error.getString("verification_result", "(none)");
            count(result);
            if (!c.expected().equals(result)) {
                fail("expected " + c.expected() + ", got " + result + " [" + c.kind() + "]",
                        preview(c.text()) + " -> " + preview(error.toString()));
            }
            if (c.releaseKey() != null && !(c.releaseKey().equals(error.getString("release_operation_id", ""))
                    && error.containsKey("task_id"))) {
                fail("a release refusal does not echo release_operation_id and task_id", preview(error.toString()));
            }
        }
    }

    /** The authorised client: a correctly signed claim and release of a fresh task, and replays of its own frames. */
    private final class Control {
        private final SynapseClient alice;
        private int pairs;
        private int replays;
        private JsonObject lastClaim;

        Control(SynapseClient alice) {
            this.alice = alice;
        }

        void pair() {
            String task = "ctl-" + pairs;
            lastClaim = ALICE_KEY.sign(claim(task, "fz/ctl/" + task), ALICE);
            alice.sendRaw(lastClaim.toString());
            alice.expect(f -> "claim_granted".equals(f.getString("type", "")) && task.equals(f.getString("task_id", ""))
                    && ALICE.equals(f.getString("owner", "")), WAIT);
            alice.sendRaw(ALICE_KEY.sign(Json.createObjectBuilder().add("type", "release").add("target", "System")
                    .add("task_id", task).add("idem_key", "op-" + task), ALICE).toString());
            alice.expect(f -> "release_granted".equals(f.getString("type", "")) && task.equals(f.getString("task_id", "")), WAIT);
            pairs++;
        }

        void replay() {
            alice.sendRaw(lastClaim.toString());
            JsonObject error = alice.expect(f -> "error".equals(f.getString("type", "")) && f.containsKey("verification_result"), WAIT);
            if (!"replayed".equals(error.getString("verification_result"))) {
                fail("a replayed control was not refused as replayed", preview(error.toString()));
            }
            replays++;
        }
    }

    // ------------------------------------------------------------------ frames

    /** One attacker frame, the refusal it must get ({@code acl} or a §6.3 result), and a release's idem_key. */
    record Case(String kind, String text, String expected, String releaseKey) {
    }

    static JsonObjectBuilder claim(String task, String path) {
        return Json.createObjectBuilder().add("type", "claim").add("target", "System").add("task_id", task)
                .add("paths", Json.createArrayBuilder().add(path));
    }

    /** The attacker's frames: a verb with random fields, then one defect in its authentication. */
    private static final class Generator {
        private static final String CLEAN = "aZ09 _-/.:\"\\\u00df\u00fc\u4e2d\ud83d\ude80";
        private static final String[] DEFECTS = {"no-auth", "auth-not-object", "ed25519-envelope-instead", "kid-missing",
            "kid-mistyped", "unknown-kid", "revoked-kid", "foreign-key", "wrong-secret", "truncated-value",
            "value-mistyped", "wrong-alg", "nonce-missing", "nonce-empty", "nonce-too-long", "timestamp-missing",
            "timestamp-mistyped", "mac-of-another-frame", "changed-after-signing", "stale", "future", "bad-sequence",
            "replayed-nonce"};
        private static final String[] UNSIGNED = {"chat", "ledger_task", "delivery_request", "advertise"};

        private final Random random;
        private final List<JsonObject> accepted;
        private final long acceptedAt;
        private int n;

        Generator(Random random, List<JsonObject> accepted, long acceptedAt) {
            this.random = random;
            this.accepted = accepted;
            this.acceptedAt = acceptedAt;
        }

        Case next() {
            n++;
            if (random.nextInt(12) == 0) {
                return unsignedVerb();
            }
            String defect = DEFECTS[random.nextInt(DEFECTS.length)];
            long now = System.currentTimeMillis() / 1000;
            if ("replayed-nonce".equals(defect)) {
                JsonObject replay = accepted.get(random.nextInt(accepted.size()));
                // past the window the same frame is refused for its age first (§6.3 order)
                return new Case(defect, replay.toString(), now - acceptedAt < WINDOW_SECONDS - 20 ? "replayed" : "expired", null);
            }
            boolean needsValidMac = "stale".equals(defect) || "future".equals(defect) || "bad-sequence".equals(defect);
            JsonObject base = verb(needsValidMac).add("sender", MALLORY).build();
            String release = base.getString("idem_key", null);
            String verbName = base.getString("type").trim().toLowerCase(java.util.Locale.ROOT);
            if (!"release".equals(verbName)) {
                release = null;
            }
            JsonObjectBuilder frame = Json.createObjectBuilder(base);
            return switch (defect) {
                case "no-auth" -> done(defect, base, "missing", release);
                case "auth-not-object" -> done(defect, frame.add("auth", notAnObject()).build(), "missing", release);
                case "ed25519-envelope-instead" -> done(defect, frame.add("signature", Json.createObjectBuilder()
                        .add("version", 2).add("key_id", "k-mallory").add("algorithm", "ed25519")
                        .add("nonce", HmacSigner.freshNonce()).add("signed_at", now).add("domain", "fz:v2")
                        .add("value", hex(random, 64))).build(), "missing", release);
                case "kid-missing" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.remove("kid")), "bad_authentication", release);
                case "kid-mistyped" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("kid", random.nextInt(100))),
                        "bad_authentication", release);
                case "unknown-kid" -> done(defect, seal(MALLORY_KEY, Json.createObjectBuilder(base).add("auth",
                        new HmacSigner(random.nextBoolean() ? "k-nobody" : "K-MALLORY", "whatever").auth(now)).build()),
                        "unknown_key", release);
                case "revoked-kid" -> done(defect, seal(MALLORY_OLD, Json.createObjectBuilder(base).add("auth", MALLORY_OLD.auth(now)).build()),
                        "revoked_key", release);
                case "foreign-key" -> done(defect, seal(ALICE_KEY, Json.createObjectBuilder(base).add("auth", ALICE_KEY.auth(now)).build()),
                        "sender_mismatch", release);
                case "wrong-secret" -> done(defect, seal(new HmacSigner("k-mallory", "not-" + random.nextInt()),
                        Json.createObjectBuilder(base).add("auth", MALLORY_KEY.auth(now)).build()), "bad_authentication", release);
                case "truncated-value" -> {
                    JsonObject signed = seal(MALLORY_KEY, Json.createObjectBuilder(base).add("auth", MALLORY_KEY.auth(now)).build());
                    String value = signed.getJsonObject("auth").getString("value");
                    yield done(defect, withAuth(signed, a -> a.add("value", value.substring(0, random.nextInt(value.length())))),
                            "bad_authentication", release);
                }
                case "value-mistyped" -> done(defect, withAuth(seal(MALLORY_KEY, Json.createObjectBuilder(base)
                        .add("auth", MALLORY_KEY.auth(now)).build()), a -> a.add("value", notAString())), "bad_authentication", release);
                case "wrong-alg" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("alg",
                        random.nextBoolean() ? "hmac-sha1" : "HMAC-SHA256")), "bad_authentication", release);
                case "nonce-missing" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.remove("nonce")), "bad_authentication", release);
                case "nonce-empty" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("nonce", "")), "bad_authentication", release);
                case "nonce-too-long" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("nonce", "n".repeat(257 + random.nextInt(500)))),
                        "bad_authentication", release);
                case "timestamp-missing" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.remove("timestamp")),
                        "bad_authentication", release);
                case "timestamp-mistyped" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("timestamp", Long.toString(now))),
                        "bad_authentication", release);
                case "mac-of-another-frame" -> {
                    JsonObject other = seal(MALLORY_KEY, Json.createObjectBuilder(verb(true).add("sender", MALLORY).build())
                            .add("auth", MALLORY_KEY.auth(now)).build());
                    JsonObject mine = Json.createObjectBuilder(base).add("auth", Json.createObjectBuilder(other.getJsonObject("auth"))).build();
                    yield done(defect, mine, "bad_authentication", release);
                }
                case "changed-after-signing" -> {
                    JsonObject signed = seal(MALLORY_KEY, Json.createObjectBuilder(base).add("auth", MALLORY_KEY.auth(now)).build());
                    JsonObjectBuilder changed = Json.createObjectBuilder(signed);
                    switch (random.nextInt(4)) {
                        case 0 -> changed.add("task_id", HELD.get(random.nextInt(HELD.size())) + "x");
                        case 1 -> changed.add("payload", text(random, true, 1 + random.nextInt(30)));
                        case 2 -> changed.add("extra_" + random.nextInt(9), random.nextInt());
                        default -> changed.add("auth", Json.createObjectBuilder(signed.getJsonObject("auth")).add("sequence", random.nextInt(1000) + 1_000_000));
                    }
                    yield done(defect, changed.build(), "bad_authentication", release);
                }
                case "stale" -> done(defect, seal(MALLORY_KEY, Json.createObjectBuilder(base)
                        .add("auth", MALLORY_KEY.auth(now - WINDOW_SECONDS - 5 - random.nextInt(100_000))).build()), "expired", release);
                case "future" -> done(defect, seal(MALLORY_KEY, Json.createObjectBuilder(base)
                        .add("auth", MALLORY_KEY.auth(now + 30 + random.nextInt(100_000))).build()), "expired", release);
                case "bad-sequence" -> done(defect, sealedWith(base, MALLORY_KEY, now, a -> a.add("sequence",
                        random.nextBoolean() ? Json.createValue(-1 - random.nextInt(1000)) : Json.createValue("17"))),
                        "sequence_mismatch", release);
                default -> throw new IllegalStateException(defect);
            };
        }

        /** A signed verb with random fields; {@code clean} keeps its text to what both CJ-UTF8 writers render alike. */
        private JsonObjectBuilder verb(boolean clean) {
            String held = HELD.get(random.nextInt(HELD.size()));
            String task = random.nextBoolean() ? held : "fz-pool-" + random.nextInt(16);
            String[] typeSpellings = {"", "", "", "upper", "padded"};
            JsonObjectBuilder b = Json.createObjectBuilder();
            String type;
            switch (random.nextInt(6)) {
                case 0 -> {
                    type = "claim";
                    JsonArrayBuilder paths = Json.createArrayBuilder();
                    for (int i = random.nextInt(3); i >= 0; i--) {
                        paths.add("fz/" + text(random, clean, 1 + random.nextInt(12)));
                    }
                    b.add("task_id", task).add("paths", paths);
                }
                case 1 -> {
                    type = "release";
                    b.add("task_id", held);
                    if (random.nextInt(4) > 0) {
                        b.add("idem_key", "op-fz-" + n);
                    }
                }
                case 2 -> {
                    type = "task_update";
                    b.add("task_id", held).add("status", random.nextBoolean() ? "done" : text(random, clean, 6));
                }
                case 3 -> {
                    type = "handoff";
                    b.add("task_id", held).add("to", random.nextBoolean() ? ALICE : text(random, clean, 8));
                }
                case 4 -> {
                    type = "checkpoint";
                    b.add("task_id", held).add("note", text(random, clean, 20));
                }
                default -> {
                    type = List.of("resource", "resource_offer", "offer_resource").get(random.nextInt(3));
                    b.add("kind", "gpu").add("name", "fz-r" + random.nextInt(8)).add("action", random.nextBoolean() ? "offer" : "withdraw");
                }
            }
            switch (typeSpellings[random.nextInt(typeSpellings.length)]) {
                case "upper" -> type = type.toUpperCase(java.util.Locale.ROOT);
                case "padded" -> type = " " + type + " ";
                default -> { }
            }
            b.add("type", type).add("target", "handoff".equals(type.trim().toLowerCase(java.util.Locale.ROOT)) ? ALICE : "System")
                    .add("payload", text(random, clean, random.nextInt(40)));
            for (int i = random.nextInt(3); i > 0; i--) {
                b.add("x_" + text(random, true, 3).replace('"', 'q'), randomValue(clean));
            }
            return b;
        }

        private Case unsignedVerb() {
            String type = UNSIGNED[random.nextInt(UNSIGNED.length)];
            long now = System.currentTimeMillis() / 1000;
            JsonObjectBuilder b = Json.createObjectBuilder().add("type", type).add("payload", text(random, false, random.nextInt(30)));
            switch (type) {
                case "chat" -> b.add("target", MONITOR);
                case "ledger_task" -> b.add("target", "System").add("task_id", "fz-board-" + random.nextInt(8)).add("title", "t");
                case "delivery_request" -> b.add("target", MONITOR).add("request_id", "fz-dr-" + n);
                default -> b.add("target", "System").add("card", Json.createObjectBuilder().add("agent", MALLORY)
                        .add("project", "fz").add("skills", Json.createArrayBuilder().add("forgery")));
            }
            JsonObject base = b.add("sender", MALLORY).build();
            JsonObject frame = random.nextBoolean() ? base
                    : seal(MALLORY_KEY, Json.createObjectBuilder(base).add("auth", MALLORY_KEY.auth(now - random.nextInt(2) * 1000)).build());
            return new Case("unsigned-verb " + type, frame.toString(), "acl", null);
        }

        /**
         * {@code key}'s MAC of {@code unsigned}; a frame with a fraction somewhere (random fields of a frame
         * whose MAC must fail anyway) gets random hex, as the test has no CJ-UTF8 for fractions.
         */
        private JsonObject seal(HmacSigner key, JsonObject unsigned) {
            try {
                return key.seal(unsigned);
            } catch (ArithmeticException e) {
                return Json.createObjectBuilder(unsigned).add("auth", Json.createObjectBuilder(unsigned.getJsonObject("auth"))
                        .add("value", hex(random, 32))).build();
            }
        }

        private JsonObject sealedWith(JsonObject base, HmacSigner key, long now, java.util.function.Consumer<JsonObjectBuilder> change) {
            JsonObjectBuilder auth = key.auth(now);
            change.accept(auth);
            return seal(key, Json.createObjectBuilder(base).add("auth", auth).build());
        }

        private static JsonObject withAuth(JsonObject signed, java.util.function.Consumer<JsonObjectBuilder> change) {
            JsonObjectBuilder auth = Json.createObjectBuilder(signed.getJsonObject("auth"));
            change.accept(auth);
            return Json.createObjectBuilder(signed).add("auth", auth).build();
        }

        private JsonValue notAnObject() {
            return switch (random.nextInt(5)) {
                case 0 -> Json.createValue(hex(random, 32));
                case 1 -> Json.createValue(random.nextInt());
                case 2 -> Json.createArrayBuilder().add("k-mallory").add(hex(random, 32)).build();
                case 3 -> JsonValue.TRUE;
                default -> JsonValue.NULL;
            };
        }

        private JsonValue notAString() {
            return switch (random.nextInt(4)) {
                case 0 -> Json.createValue(random.nextLong());
                case 1 -> JsonValue.NULL;
                case 2 -> Json.createArrayBuilder().add(hex(random, 32)).build();
                default -> Json.createObjectBuilder().add("value", hex(random, 32)).build();
            };
        }

        private JsonValue randomValue(boolean clean) {
            return switch (random.nextInt(clean ? 4 : 6)) {
                case 0 -> Json.createValue(text(random, clean, random.nextInt(20)));
                case 1 -> Json.createValue(random.nextInt());
                case 2 -> random.nextBoolean() ? JsonValue.TRUE : JsonValue.NULL;
                case 3 -> Json.createArrayBuilder().add(random.nextLong()).add(text(random, clean, 4)).build();
                case 4 -> Json.createValue(random.nextDouble() * 1e6);
                default -> Json.createObjectBuilder().add("deep", Json.createObjectBuilder().add("x", random.nextGaussian())).build();
            };
        }

        private static Case done(String kind, JsonObject frame, String expected, String release) {
            return new Case(kind, frame.toString(), expected, release);
        }

        /** Random text; not clean: FuzzIT's awkward alphabet (controls, invisible and non-ASCII), lone surrogates aside. */
        private static String text(Random random, boolean clean, int length) {
            if (!clean) {
                return Strings.randomText(random, length).replace('\ud800', '?');
            }
            StringBuilder b = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                char c = CLEAN.charAt(random.nextInt(CLEAN.length()));
                b.append(Character.isSurrogate(c) ? "\ud83d\ude80" : String.valueOf(c));
            }
            return b.toString();
        }

        private static String hex(Random random, int bytes) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < bytes; i++) {
                b.append(String.format("%02x", random.nextInt(256)));
            }
            return b.toString();
        }
    }

    // ------------------------------------------------------------------ what the operator sees

    /** The hub state an unauthenticated frame must not change, as the operator console reports it. */
    record Snapshot(TreeSet<String> claims, String board, TreeSet<String> roster, String mailbox) {
    }

    private Snapshot snapshot() throws Exception {
        TreeSet<String> claims = new TreeSet<>();
        console("/claims").getJsonArray("claims").forEach(v -> claims.add(v.asJsonObject().getString("task_id", "?")
                + " owned by " + v.asJsonObject().getString("owner", v.asJsonObject().getString("agent", "?"))));
        TreeSet<String> roster = new TreeSet<>();
        console("/roster").getJsonArray("connections").forEach(v -> roster.add(v.asJsonObject().getString("name", "?")));
        return new Snapshot(claims, String.valueOf(console("/board")), roster, console("/mailbox").toString());
    }

    private static long lastSeq() throws Exception {
        return console("/journal").getJsonNumber("last_seq").longValue();
    }

    private static JsonObject console(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(hub.http("/console/api" + path)).header("Cookie", cookie)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return Json.createReader(new StringReader(r.body())).readObject();
    }

    /** Every two seconds: a who_request answered, /health 200, and never a chat from the attacker. */
    private void monitor(SynapseClient watcher, AtomicBoolean fuzzing, AtomicInteger rounds) {
        do {
            int round = rounds.get();
            try {
                if (watcher.isClosed()) {
                    fail("monitor: its connection was closed", watcher.closeReason());
                    return;
                }
                String id = "who-" + round;
                watcher.send(SynapseClient.frame("who_request", "System", "who").add("request_id", id).build());
                watcher.expect(f -> {
                    if ("chat".equals(f.getString("type", "")) && MALLORY.equals(f.getString("sender", ""))) {
                        fail("an attacker chat reached the monitor", preview(f.toString()));
                    }
                    return "who_snapshot".equals(f.getString("type", ""));
                }, Duration.ofSeconds(15));
            } catch (RuntimeException | AssertionError e) {
                fail("monitor: who_request not answered", "round " + round + ": " + e);
            }
            try {
                HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(hub.http("/health"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() != 200) {
                    fail("monitor: /health " + health.statusCode(), "round " + round);
                }
            } catch (IOException e) {
                fail("monitor: /health no answer", "round " + round + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            rounds.incrementAndGet();
            try {
                Thread.sleep(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } while (fuzzing.get());
    }

    /** Stack traces in the hub log since {@code from}: any is a failure. */
    private void scanLog(long from) throws IOException {
        for (String trace : HubLog.stackTraces(HubLog.since(hub.logFile(), from))) {
            fail("stack trace in the hub log", trace);
        }
    }

    // ------------------------------------------------------------------ bookkeeping

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private void fail(String category, String example) {
        failureCounts.computeIfAbsent(category, k -> new AtomicInteger()).incrementAndGet();
        List<String> examples = failures.computeIfAbsent(category, k -> new ArrayList<>());
        synchronized (examples) {
            if (examples.size() < 3) {
                examples.add(preview(example));
            }
        }
    }

    private void count(String result) {
        results.computeIfAbsent(result, k -> new AtomicInteger()).incrementAndGet();
    }

    private static String preview(String text) {
        String printable = Strings.printable(text == null ? "" : text);
        return printable.length() > 400 ? printable.substring(0, 400) + "..." : printable;
    }
}
