package org.switchboard.synapse.identity;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.SynapseSettings;

class IdentityStartupTest {

    @TempDir
    Path dir;

    @Test
    void noBundleAndNoRequirementServes() {
        assertNull(IdentityStartup.fault(SynapseSettings.builder().build()));
    }

    @Test
    void requiredBindingWithoutABundleRefusesToServe() {
        String fault = IdentityStartup.fault(SynapseSettings.builder().requireIdentityBinding(true).build());
        assertTrue(fault != null && fault.contains("hub.require-identity-binding"), String.valueOf(fault));
    }

    @Test
    void aBundleThatDoesNotLoadRefusesToServeNamingItsKey() throws IOException {
        assertTrue(IdentityStartup.fault(SynapseSettings.builder().identityTrust(dir.resolve("absent.json").toString())
                .build()).contains("hub.identity-trust"));
        Path open = dir.resolve("open.json");
        Files.writeString(open, "{\"keys\":[]}");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        String fault = IdentityStartup.fault(SynapseSettings.builder().identityTrust(open.toString()).build());
        assertTrue(fault.contains("hub.identity-trust") && fault.contains("group or others"), fault);
    }
}
