package org.switchboard.synapse.federation.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.federation.TestKeystores;

class CertificatePinsTest {

    @Test
    void thePinIsSha256OfTheDerInLowercaseHex() throws Exception {
        X509Certificate cert = TestKeystores.certificate(TestKeystores.shared(), "peer", TestKeystores.SHARED_PASSWORD);
        String expected = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        assertEquals(expected, CertificatePins.of(cert));
        assertTrue(PolicyChecks.CERT_PIN.matcher(CertificatePins.of(cert)).matches(), "a pin the policy grammar accepts");
    }

    @Test
    void aPinMatchesOnlyItself() {
        String a = "sha256:" + "ab".repeat(32);
        String b = "sha256:" + "cd".repeat(32);
        assertTrue(CertificatePins.matches(a, Set.of(a)));
        assertTrue(CertificatePins.matches(a, List.of(b, a)));
        assertFalse(CertificatePins.matches(b, Set.of(a)));
        assertFalse(CertificatePins.matches(a.toUpperCase(), Set.of(a)), "pins are lowercase");
        assertFalse(CertificatePins.matches(null, Set.of(a)), "no certificate presented");
        assertFalse(CertificatePins.matches(a, Set.of()), "nothing pinned");
    }
}
