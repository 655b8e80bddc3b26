package org.switchboard.synapse.federation.peerread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.attachments.AttachmentLedger;
import org.switchboard.synapse.attachments.AttachmentMetadata;
import org.switchboard.synapse.attachments.AttachmentStore;

/** Peer attachment reads (synapse-advanced §5.3, §5.4) against a real store and policy files. */
class PeerReadServiceTest {

    static final String TOKEN = "peer-read-test-token-42";
    static final byte[] BYTES = "peer-readable object".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    TestHub hub;
    AttachmentStore store;
    Path recipient;
    String digest;
    PeerReadAudit audit = PeerReadAudit.memory();
    PeerReadService reads;
    boolean failAudit;

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    static Path ownerOnly(Path p, String text) throws Exception {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        return p;
    }

    @BeforeEach
    void setUp() throws Exception {
        Path multihub = ownerOnly(dir.resolve("multihub.json"), "{\"version\":1,\"grants\":["
                + "{\"sender\":\"hub-b\",\"namespace\":\"ACME\",\"verbs\":[\"read\"]},"
                + "{\"sender\":\"hub-m\",\"namespace\":\"ACME\",\"verbs\":[\"message\"]}]}");
        hub = new TestHub(SynapseSettings.builder().token(TOKEN).multihubPolicy(multihub.toString()).build(),
                new InMemoryJournal());
        Path root = Files.createDirectory(dir.resolve("store"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        store = AttachmentStore.open(root.resolve("a"), new Ledger(), hub.hub.context().frames()::now, AttachmentStore.Limits.SPEC);
        digest = sha256(BYTES);
        String id = store.begin("owner", new AttachmentMetadata("ACME", digest, BYTES.length, "text/plain", "ci:1",
                hub.hub.context().frames().now() + 3600));
        store.chunk("owner", id, 0, BYTES);
        store.commit("owner", id);
        recipient = grant("hub-b", "hub-m");
        PeerReadAudit checked = new PeerReadAudit() {
            @Override
            public void record(double readAt, String r, String scope, String d, String action, boolean allowed) {
                if (failAudit) {
                    throw new IllegalStateException("database down");
                }
                audit.record(readAt, r, scope, d, action, allowed);
            }

            @Override
            public List<Row> rows() {
                return audit.rows();
            }
        };
        reads = new PeerReadService(hub.hub.context(), hub.hub.federation().peers(), recipient, () -> store, checked);
    }

    Path grant(String... hubs) throws Exception {
        StringBuilder g = new StringBuilder();
        for (String h : hubs) {
            g.append(g.length() == 0 ? "" : ",").append("{\"recipient_hub\":\"").append(h)
                    .append("\",\"scope\":\"ACME\",\"digest\":\"").append(digest).append("\",\"expires_at\":1.0e10}");
        }
        return ownerOnly(dir.resolve("recipient.json"), "{\"version\":1,\"grants\":[" + g + "]}");
    }

    TestHub.Client peer(String id, int version) {
        return hub.register(id, Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", version));
    }

    JsonObject ask(TestHub.Client c, JsonObjectBuilder request) {
        reads.handle(c.connection(), request.add("type", "attachment_peer_request").build());
        return c.peer().lastOfType("attachment_peer_result");
    }

    JsonObjectBuilder read(long offset) {
        return Json.createObjectBuilder().add("action", "read").add("scope", "ACME").add("digest", digest).add("offset", offset);
    }

    static void uniform(JsonObject r) {
        assertFalse(r.getBoolean("ok"), r.toString());
        assertEquals("attachment unavailable", r.getString("error"));
        for (String leak : List.of("metadata", "body", "scope", "digest", "eof")) {
            assertFalse(r.containsKey(leak), "the refusal carries nothing else: " + r);
        }
    }

    @Test
    void aGrantedPeerReadsInfoAndBytes() {
        TestHub.Client b = peer("hub-b", 6);
        JsonObject info = ask(b, Json.createObjectBuilder().add("action", "info").add("scope", "ACME").add("digest", digest));
        assertTrue(info.getBoolean("ok"), info.toString());
        assertEquals(BYTES.length, info.getJsonObject("metadata").getInt("length"));
        JsonObject r = ask(b, read(0));
        assertTrue(r.getBoolean("ok"));
        assertEquals("peer-readable object", new String(Base64.getDecoder().decode(r.getString("body")), StandardCharsets.UTF_8));
        assertTrue(r.getBoolean("eof"));
        assertEquals(List.of("info", "read"), audit.rows().stream().map(PeerReadAudit.Row::action).toList());
        assertTrue(audit.rows().stream().allMatch(PeerReadAudit.Row::allowed));
    }

    @Test
    void everyFailedCheckGetsTheSameRefusal() throws Exception {
        TestHub.Client old = peer("hub-b", 5);
        uniform(ask(old, read(0)));                                      // below version 6
        old.disconnect();
        uniform(ask(peer("hub-m", 6), read(0)));                         // namespace granted, verb read not
        uniform(ask(peer("hub-z", 6), read(0)));                         // no grant at all
        TestHub.Client b = peer("hub-b", 6);
        uniform(ask(b, read(0).add("scope", "OTHER")));                  // wrong scope
        uniform(ask(b, read(0).add("digest", "0".repeat(64))));          // not in the recipient policy
        uniform(ask(b, Json.createObjectBuilder().add("action", "read").add("scope", "ACME").add("digest", digest)
                .add("offset", 1.5)));                                   // offset not an integer
        uniform(ask(b, read(0).add("action", "list")));                  // unknown action
        uniform(ask(b, read(BYTES.length + 1)));                         // offset past the end
        assertEquals("invalid", audit.rows().get(audit.rows().size() - 2).action());
        assertTrue(audit.rows().stream().noneMatch(PeerReadAudit.Row::allowed));
    }

    @Test
    void revocationTakesEffectOnTheNextRequestOnTheSameSocket() throws Exception {
        TestHub.Client b = peer("hub-b", 6);
        assertTrue(ask(b, read(0)).getBoolean("ok"));
        grant("hub-m");
        uniform(ask(b, read(0)));
        grant("hub-b");
        assertTrue(ask(b, read(0)).getBoolean("ok"));
        Files.setPosixFilePermissions(recipient, PosixFilePermissions.fromString("rw-r--r--"));
        uniform(ask(b, read(0)));                                        // a file no longer private denies everything
    }

    @Test
    void aFailedAuditWriteRefusesAndTheAuditKeeps256Rows() {
        TestHub.Client b = peer("hub-b", 6);
        failAudit = true;
        uniform(ask(b, read(0)));
        failAudit = false;
        for (int i = 0; i < 300; i++) {
            ask(b, read(0));
        }
        assertEquals(256, audit.rows().size());
        assertEquals(300, audit.rows().get(255).sequence());
    }

    /** A minimal in-memory attachment ledger. */
    static final class Ledger implements AttachmentLedger {
        final Map<String, AttachmentMetadata> objects = new HashMap<>();
        final Set<String> refs = new java.util.HashSet<>();

        @Override public synchronized Optional<AttachmentMetadata> find(String s, String d) { return Optional.ofNullable(objects.get(s + " " + d)); }
        @Override public synchronized List<AttachmentMetadata> all() { return new ArrayList<>(objects.values()); }
        @Override public synchronized List<AttachmentMetadata> inScope(String s) { return objects.values().stream().filter(m -> m.scope().equals(s)).toList(); }
        @Override public void insertUpload(String u, String s, String d, long l, String o) { }
        @Override public void deleteUpload(String u) { }
        @Override public void deleteAllUploads() { }
        @Override public synchronized void commit(String u, AttachmentMetadata m) { objects.put(m.scope() + " " + m.digest(), m); }
        @Override public synchronized void deleteObject(String s, String d) { objects.remove(s + " " + d); }
        @Override public synchronized void addRef(String s, String d, String r) { refs.add(s + d + r); }
        @Override public synchronized void removeRef(String s, String d, String r) { refs.remove(s + d + r); }
        @Override public synchronized boolean referenced(String s, String d) { return refs.stream().anyMatch(r -> r.startsWith(s + d)); }
    }
}
