package org.switchboard.synapse.attachments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.messageauth.MacInput;

/**
 * The hub opening its attachment store once the security layers are configured (§3.1): the store
 * opens only with every piece, its verbs then join step 14's signed set (§3.2), and a socket's
 * uploads are discarded when it closes.
 */
class AttachmentOpeningTest {

    private static final String SECRET = "attachment-step-secret";
    private static final String TOKEN = "opening-t0ken";

    @TempDir
    Path temp;

    private TestHub test;
    private Path root;
    private final AtomicInteger nonces = new AtomicInteger();

    /** Grants every attachment permission (the authority's own rules are unit-tested apart). */
    private static final AttachmentAuthority ALLOW_ALL = new AttachmentAuthority() {
        @Override
        public boolean roleGranted(String sender, String scope, String permission) {
            return true;
        }

        @Override
        public boolean aclAllows(String sender, String scope, String permission) {
            return true;
        }
    };

    @BeforeEach
    void setUp() throws IOException {
        Path keys = temp.resolve("keys.json");
        Files.writeString(keys, "{\"keys\":[{\"kid\":\"k1\",\"secret\":\"" + SECRET + "\",\"senders\":[\"ACME/alice\"]}]}");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        root = temp.resolve("store");
        test = new TestHub(SynapseSettings.builder().token(TOKEN).attachmentsDir(root.toString())
                .messageAuthKeyFile(keys.toString()).requireMessageAuth(true).build(), new InMemoryJournal());
    }

    private TestHub.Client alice() {
        return test.register("ACME/alice", Json.createObjectBuilder().add("token", TOKEN).add("protocol_version", 4));
    }

    private String signed(String type, JsonObjectBuilder fields) {
        JsonObject auth = Json.createObjectBuilder().add("alg", "hmac-sha256").add("kid", "k1")
                .add("nonce", "n-" + nonces.incrementAndGet()).add("sequence", nonces.get())
                .add("timestamp", System.currentTimeMillis() / 1000.0).build();
        JsonObject unsigned = fields.add("type", type).add("target", "System").add("sender", "ACME/alice")
                .add("scope", "ACME").add("auth", auth).build();
        String mac = MacInput.hmacHex(SECRET.getBytes(StandardCharsets.UTF_8), MacInput.bytes(unsigned));
        return Json.createObjectBuilder(unsigned).add("auth", Json.createObjectBuilder(auth).add("value", mac))
                .build().toString();
    }

    @Test
    void withEveryPieceTheStoreOpensAndItsVerbsMustBeSigned() throws Exception {
        TestHub.Client before = alice();
        before.send(Json.createObjectBuilder().add("type", "attachment_info").add("target", "System").add("scope", "ACME"));
        assertEquals("attachments disabled", before.peer().lastOfType("attachment_result").getString("error"),
                "closed until the wiring opens it; not in the signed set while closed");
        before.disconnect();

        assertTrue(test.hub.openAttachments(List::of, ALLOW_ALL, MemoryLedger::new));
        for (Path dir : List.of(root, root.resolve("staging"), root.resolve("objects"))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)), dir.toString());
        }

        TestHub.Client alice = alice();
        alice.send(Json.createObjectBuilder().add("type", "attachment_info").add("target", "System").add("scope", "ACME")
                .add("digest", "0".repeat(64)));
        assertEquals("missing", alice.peer().lastOfType("error").getString("verification_result"),
                "an unsigned attachment verb is refused at step 14");

        byte[] body = "hello, attachments".getBytes(StandardCharsets.UTF_8);
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        alice.sendRaw(signed("attachment_begin", Json.createObjectBuilder().add("digest", digest).add("length", body.length)
                .add("media_type", "text/plain").add("provenance", "unit:test")
                .add("expires_at", System.currentTimeMillis() / 1000 + 3600)));
        JsonObject begun = alice.peer().lastOfType("attachment_result");
        assertTrue(begun.getBoolean("ok"), begun.toString());
        alice.sendRaw(signed("attachment_chunk", Json.createObjectBuilder().add("upload_id", begun.getString("upload_id"))
                .add("offset", 0).add("body", Base64.getEncoder().encodeToString(body))));
        assertEquals(body.length, alice.peer().lastOfType("attachment_result").getInt("received"));
        try (var staged = Files.list(root.resolve("staging"))) {
            assertEquals(1, staged.count());
        }

        alice.disconnect();
        try (var staged = Files.list(root.resolve("staging"))) {
            assertEquals(0, staged.count(), "the socket's upload is discarded when it closes");
        }
    }

    @Test
    void aMissingPieceKeepsTheStoreClosedAndTheVerbsUnsigned() {
        assertFalse(test.hub.openAttachments(() -> List.of("role-grant store (hub.role-grants)"), ALLOW_ALL,
                MemoryLedger::new));
        assertFalse(Files.exists(root), "the store must not touch its directory");
        TestHub.Client alice = alice();
        alice.send(Json.createObjectBuilder().add("type", "attachment_begin").add("target", "System").add("scope", "ACME"));
        assertEquals("attachments disabled", alice.peer().lastOfType("attachment_result").getString("error"));
    }

    @Test
    void aHubWithoutAJournalKeepsTheStoreClosedWhateverTheLayersSay() {
        TestHub noJournal = new TestHub(SynapseSettings.builder().token(TOKEN).attachmentsDir(root.toString()).build(), null);
        assertFalse(noJournal.hub.openAttachments(List::of, ALLOW_ALL, MemoryLedger::new));
        assertFalse(Files.exists(root));
    }
}
