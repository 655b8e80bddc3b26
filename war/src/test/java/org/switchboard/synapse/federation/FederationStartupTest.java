package org.switchboard.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/** The receiving side's start-up refusals: one line naming the key, never the file's content. */
class FederationStartupTest {

    @TempDir
    Path dir;

    Path file(String name, String text, String mode) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    String fault(SynapseSettings.Builder settings) {
        return new TestHub(settings.token("t-123").build(), new InMemoryJournal()).hub.federation().startupFault();
    }

    @Test
    void aUsableConfigurationHasNoFault() throws Exception {
        Path policy = file("m.json", "{\"version\":1,\"grants\":[]}", "rw-------");
        Path ledger = file("s.json", "{\"version\":1,\"pools\":[]}", "rw-------");
        assertNull(fault(SynapseSettings.builder()));
        assertNull(fault(SynapseSettings.builder().multihubPolicy(policy.toString()).spendLedger(ledger.toString())));
    }

    @Test
    void eachBadFileIsNamedByItsKey() throws Exception {
        Path secret = file("m.json", "{\"version\":1,\"grants\":[],\"secret-value-xyz\":1}", "rw-------");
        String f = fault(SynapseSettings.builder().multihubPolicy(secret.toString()));
        assertTrue(f.startsWith("SYNAPSE refuses to serve: hub.multihub-policy:"), f);
        Path open = file("o.json", "{\"version\":1,\"grants\":[]}", "rw-r--r--");
        assertTrue(fault(SynapseSettings.builder().multihubPolicy(open.toString())).contains("hub.multihub-policy"));
        Path ledger = file("s.json", "{\"version\":1,\"pools\":\"x\"}", "rw-------");
        assertTrue(fault(SynapseSettings.builder().spendLedger(ledger.toString())).contains("hub.spend-ledger"));
        assertTrue(fault(SynapseSettings.builder().multihubPolicy(dir.resolve("missing.json").toString()))
                .contains("hub.multihub-policy"));
    }

    @Test
    void aRecipientPolicyNeedsTheAttachmentPostureAndAMultihubPolicy() throws Exception {
        Path policy = file("m.json", "{\"version\":1,\"grants\":[]}", "rw-------");
        Path recipient = file("r.json", "{\"version\":1,\"grants\":[]}", "rw-------");
        String f = fault(SynapseSettings.builder().multihubPolicy(policy.toString())
                .attachmentRecipientPolicy(recipient.toString()));
        assertTrue(f.contains("hub.attachment-recipient-policy") && f.contains("attachment posture"), f);
        assertTrue(fault(SynapseSettings.builder().attachmentRecipientPolicy(recipient.toString()))
                .contains("hub.attachment-recipient-policy"));
    }
}
