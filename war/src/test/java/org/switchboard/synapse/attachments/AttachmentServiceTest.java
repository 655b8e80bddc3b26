package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.FakePeer;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

class AttachmentServiceTest {

    @TempDir
    Path temp;

    /** Test-only authority: grants exactly what the test put in its sets. */
    private final Set<String> roles = new HashSet<>();
    private final Set<String> acl = new HashSet<>();
    private final AttachmentAuthority authority = new AttachmentAuthority() {
        @Override
        public boolean roleGranted(String sender, String scope, String permission) {
            return roles.contains(sender + " " + scope + "/" + permission);
        }

        @Override
        public boolean aclAllows(String sender, String scope, String permission) {
            return acl.contains(sender + " " + permission + " attachment:" + scope);
        }
    };

    private TestHub test;
    private SynapseContext ctx;
    private AttachmentService service;
    private FakePeer peer;
    private Connection alice;

    @BeforeEach
    void setUp() throws Exception {
        test = new TestHub();
        ctx = test.hub.context();
        AttachmentStore store = AttachmentStore.open(temp.resolve("store"), new MemoryLedger(), ctx.frames()::now,
                AttachmentStore.Limits.SPEC);
        service = new AttachmentService(ctx, store, authority);
        peer = new FakePeer();
        alice = new Connection(peer, 0);
        alice.name("ACME/alice");
        alice.protocolVersion(4);
    }

    private void grantAll(String sender) {
        for (String permission : List.of("attachment-write", "attachment-read", "attachment-admin")) {
            roles.add(sender + " ACME/" + permission);
            acl.add(sender + " " + permission + " attachment:ACME");
        }
    }

    private JsonObject call(String type, JsonObjectBuilder fields) {
        service.handle(alice, "ACME/alice", type, fields.add("type", type).add("sender", "ACME/alice").build());
        return peer.lastOfType("attachment_result");
    }

    private static JsonObjectBuilder scoped() {
        return Json.createObjectBuilder().add("scope", "ACME");
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void gatesApplyInOrderBeforeAnyFieldIsExamined() {
        JsonObjectBuilder bad = Json.createObjectBuilder().add("scope", "ACME").add("digest", "not hex");
        AttachmentService disabled = new AttachmentService(ctx, null, authority);
        disabled.handle(alice, "ACME/alice", "attachment_info", bad.build());
        assertEquals("attachments disabled", peer.lastOfType("attachment_result").getString("error"));

        alice.protocolVersion(3);
        grantAll("ACME/alice");
        assertEquals("attachment protocol version four required",
                call("attachment_info", Json.createObjectBuilder().add("scope", "ACME").add("digest", "x")).getString("error"));
        alice.protocolVersion(4);
        assertEquals("attachment access denied", call("attachment_info", Json.createObjectBuilder()
                .add("scope", "OTHER").add("digest", "x")).getString("error"));
        assertEquals("attachment access denied", call("attachment_info", Json.createObjectBuilder()
                .add("scope", 5).add("digest", "x")).getString("error"));
        assertEquals("invalid attachment digest", call("attachment_info", scoped().add("digest", "x")).getString("error"));

        roles.remove("ACME/alice ACME/attachment-read");
        assertEquals("attachment access denied", call("attachment_info", scoped().add("digest", "x")).getString("error"));
        roles.add("ACME/alice ACME/attachment-read");
        acl.remove("ACME/alice attachment-read attachment:ACME");
        assertEquals("attachment access denied", call("attachment_info", scoped().add("digest", "x")).getString("error"));
        // admin does not imply read
        assertEquals(List.of(), call("attachment_gc", scoped()).getJsonArray("digests"));
    }

    @Test
    void roundTripThroughFrames() throws Exception {
        grantAll("ACME/alice");
        byte[] bytes = "it's <ok> & fine".getBytes(StandardCharsets.UTF_8);
        String digest = sha256(bytes);
        JsonObject begun = call("attachment_begin", scoped().add("digest", digest).add("length", bytes.length)
                .add("media_type", "text/plain").add("provenance", "ci:run/551").add("expires_at", ctx.frames().now() + 60));
        assertTrue(begun.getBoolean("ok"), begun.toString());
        assertEquals("", begun.getString("payload"));
        assertEquals("attachment_begin", begun.getString("operation"));
        assertEquals("ACME/alice", begun.getString("target"));
        String uploadId = begun.getString("upload_id");
        assertEquals(48, uploadId.length());

        JsonObject chunk = call("attachment_chunk", scoped().add("upload_id", uploadId).add("offset", 0)
                .add("body", Base64.getEncoder().encodeToString(bytes)));
        assertEquals(bytes.length, chunk.getInt("received"), chunk.toString());
        JsonObject committed = call("attachment_commit", scoped().add("upload_id", uploadId));
        JsonObject metadata = committed.getJsonObject("metadata");
        assertEquals(Set.of("scope", "digest", "length", "media_type", "provenance", "expires_at"), metadata.keySet());
        assertEquals(digest, metadata.getString("digest"));
        assertEquals(metadata, call("attachment_info", scoped().add("digest", digest)).getJsonObject("metadata"));

        JsonObject read = call("attachment_read", scoped().add("digest", digest).add("offset", 0).add("preview", true));
        assertEquals(Base64.getEncoder().encodeToString(bytes), read.getString("body"));
        assertTrue(read.getBoolean("eof"));
        assertEquals(0, read.getInt("offset"));
        assertEquals("it&#x27;s &lt;ok&gt; &amp; fine", read.getString("preview_html"));

        assertTrue(call("attachment_ref", scoped().add("digest", digest).add("ref", "ticket:7")).getBoolean("ok"));
        assertEquals("invalid attachment reference",
                call("attachment_ref", scoped().add("digest", digest).add("ref", "../x")).getString("error"));
        assertTrue(call("attachment_ref", scoped().add("digest", digest).add("ref", "ticket:7").add("remove", true)).getBoolean("ok"));
        test.advance(61);
        // dry run unless the literal false: a string "false" still only lists
        assertEquals(List.of(Json.createValue(digest)), call("attachment_gc", scoped().add("dry_run", "false")).getJsonArray("digests"));
        assertEquals("attachment expired", call("attachment_read", scoped().add("digest", digest).add("offset", 0)).getString("error"));
        assertEquals(List.of(Json.createValue(digest)), call("attachment_gc", scoped().add("dry_run", false)).getJsonArray("digests"));
        assertEquals("attachment unavailable", call("attachment_info", scoped().add("digest", digest)).getString("error"));
    }

    @Test
    void missingFieldsAndWrongTypesAreUnavailable() throws Exception {
        grantAll("ACME/alice");
        String digest = sha256(new byte[1]);
        assertEquals("attachment unavailable", call("attachment_begin", scoped().add("digest", digest)).getString("error"));
        assertEquals("attachment unavailable", call("attachment_begin", scoped().add("digest", digest).add("length", "1")
                .add("media_type", "text/plain").add("provenance", "p").add("expires_at", ctx.frames().now() + 5)).getString("error"));
        assertEquals("attachment unavailable", call("attachment_begin", scoped().add("digest", digest).add("length", 1)
                .add("media_type", "text/plain").add("provenance", "p").add("expires_at", true)).getString("error"));
        assertEquals("invalid expiry", call("attachment_begin", scoped().add("digest", digest).add("length", 1)
                .add("media_type", "text/plain").add("provenance", "p").add("expires_at", ctx.frames().now())).getString("error"));
        assertEquals("attachment unavailable", call("attachment_read", scoped().add("digest", digest)).getString("error"));
        assertEquals("unknown upload", call("attachment_commit", scoped().add("upload_id", "z")).getString("error"));
        assertEquals("invalid attachment chunk", call("attachment_chunk", scoped().add("upload_id", "0".repeat(48))
                .add("offset", 0).add("body", "!!")).getString("error"));
        JsonObject last = peer.lastOfType("attachment_result");
        assertFalse(last.getBoolean("ok"));
        assertEquals(1L, ctx.counters().attachmentErrors.get("invalid attachment chunk").sum());
        assertTrue(ctx.counters().attachmentErrors.get("attachment unavailable").sum() >= 4);
    }

    @Test
    void disconnectDiscardsTheSessionsUploads() throws Exception {
        grantAll("ACME/alice");
        String digest = sha256(new byte[2]);
        String uploadId = call("attachment_begin", scoped().add("digest", digest).add("length", 2)
                .add("media_type", "text/plain").add("provenance", "p").add("expires_at", ctx.frames().now() + 5))
                .getString("upload_id");
        service.closed(alice);
        assertEquals("unknown upload", call("attachment_chunk", scoped().add("upload_id", uploadId).add("offset", 0)
                .add("body", "AAA=")).getString("error"));
    }

    @Test
    void aDefaultHubAnswersEveryVerbDisabledPrivately() {
        TestHub.Client alice = test.register("ACME/alice");
        TestHub.Client bob = test.register("ACME/bob");
        alice.peer().clear();
        bob.peer().clear();
        for (String type : AttachmentHandler.TYPES) {
            alice.send(TestHub.frame(type, "System", "").add("scope", "ACME"));
            JsonObject result = alice.peer().lastOfType("attachment_result");
            assertEquals(type, result.getString("operation"));
            assertFalse(result.getBoolean("ok"));
            assertEquals("attachments disabled", result.getString("error"));
            assertEquals("", result.getString("payload"));
        }
        assertEquals(8, alice.peer().ofType("attachment_result").size());
        assertEquals(List.of(), bob.peer().frames());
        assertEquals(8L, ctx.counters().attachmentErrors.get("attachments disabled").sum());
    }

    @Test
    void postureListsEveryMissingPiece() {
        assertEquals(List.of(), AttachmentPosture.of("/var/lib/a", true, true, List::of).missing());
        List<String> missing = AttachmentPosture.of("", false, false, AttachmentPosture.SecurityPieces.NONE).missing();
        assertEquals(11, missing.size());
        assertTrue(missing.get(0).contains("hub.attachments.dir"));
        // the hub as built: closed until the container wiring opens it with the security layers
        TestHub configured = new TestHub(SynapseSettings.builder().attachmentsDir(temp.resolve("x").toString())
                .token("t0ken-value").build(), new org.switchboard.synapse.InMemoryJournal());
        assertFalse(AttachmentService.closed(configured.hub.context()).enabled());
        assertFalse(temp.resolve("x").toFile().exists());
    }

    @Test
    void theLogLineRedactsTheBody() {
        String line = AttachmentHandler.logLine("attachment_chunk", "ACME/alice");
        assertEquals("SYNAPSE attachment_chunk from ACME/alice: <attachment body redacted>", line);
    }

    // ---- source_hub: a local agent reads a peer hub's object through this hub (ours, §5) ----

    private static final String REMOTE_DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** The peer side, scripted: records each fetch and answers with {@code answer} (null: the uniform refusal). */
    private final List<String> fetched = new java.util.ArrayList<>();
    private JsonObject answer;

    private void withPeer() {
        service.remote((hub, action, scope, digest, offset) -> {
            fetched.add(hub + " " + action + " " + scope + " " + digest + " " + offset);
            if (answer == null) {
                throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
            }
            return answer;
        }, ctx.frames().hubId());
    }

    private static JsonObjectBuilder remote(String digest) {
        return scoped().add("digest", digest).add("source_hub", "hub-a");
    }

    @Test
    void aSourceHubReadPassesTheAgentsOwnGatesFirst() {
        withPeer();
        answer = Json.createObjectBuilder().add("metadata", Json.createObjectBuilder().add("length", 4)).build();
        // no role grant or ACL on this hub: refused here, the peer is never asked
        assertEquals("attachment access denied", call("attachment_info", remote(REMOTE_DIGEST)).getString("error"));
        roles.add("ACME/alice ACME/attachment-read");
        assertEquals("attachment access denied", call("attachment_info", remote(REMOTE_DIGEST)).getString("error"),
                "the role grant alone is not enough: the ACL decides too");
        assertTrue(fetched.isEmpty(), fetched.toString());
        acl.add("ACME/alice attachment-read attachment:ACME");
        JsonObject ok = call("attachment_info", remote(REMOTE_DIGEST));
        assertTrue(ok.getBoolean("ok"), ok.toString());
        assertEquals("hub-a", ok.getString("source_hub"));
        assertEquals(4, ok.getJsonObject("metadata").getInt("length"));
        assertEquals(List.of("hub-a info ACME " + REMOTE_DIGEST + " null"), fetched);
        // another scope than the agent's project is refused before the peer too
        assertEquals("attachment access denied", call("attachment_info", Json.createObjectBuilder().add("scope", "OTHER")
                .add("digest", REMOTE_DIGEST).add("source_hub", "hub-a")).getString("error"));
        assertEquals(1, fetched.size());
    }

    @Test
    void aSourceHubReadReturnsThePeersChunkOrTheUniformRefusal() {
        withPeer();
        grantAll("ACME/alice");
        answer = Json.createObjectBuilder().add("body", "dGVzdA==").add("eof", true).add("offset", 0)
                .add("digest", REMOTE_DIGEST).build();
        JsonObject ok = call("attachment_read", remote(REMOTE_DIGEST).add("offset", 0));
        assertEquals("dGVzdA==", ok.getString("body"));
        assertEquals("hub-a info".replace("info", "read") + " ACME " + REMOTE_DIGEST + " 0", fetched.get(0));
        answer = null;
        JsonObject refused = call("attachment_read", remote(REMOTE_DIGEST).add("offset", 0));
        assertFalse(refused.getBoolean("ok"));
        assertEquals("attachment unavailable", refused.getString("error"));
        // the digest and offset are checked here, before the peer is asked
        assertEquals("invalid attachment digest", call("attachment_info", remote("NOT-HEX")).getString("error"));
        assertEquals("invalid read offset", call("attachment_read", remote(REMOTE_DIGEST).add("offset", -1)).getString("error"));
        assertEquals(2, fetched.size());
    }

    @Test
    void sourceHubIsOnlyForInfoAndReadAndOnlyWithPeers() {
        grantAll("ACME/alice");
        // no peers configured: refused uniformly, nothing local is read either
        assertEquals("attachment unavailable", call("attachment_info", remote(REMOTE_DIGEST)).getString("error"));
        withPeer();
        assertEquals("attachment unavailable", call("attachment_gc", scoped().add("source_hub", "hub-a")).getString("error"));
        assertEquals("attachment unavailable", call("attachment_info", scoped().add("digest", REMOTE_DIGEST)
                .add("source_hub", 7)).getString("error"));
        assertTrue(fetched.isEmpty());
        // this hub's own id means the local store
        assertEquals("attachment unavailable", call("attachment_info", scoped().add("digest", REMOTE_DIGEST)
                .add("source_hub", ctx.frames().hubId())).getString("error"), "unknown locally");
        assertTrue(fetched.isEmpty(), "the own hub id is not a peer read");
    }
}
