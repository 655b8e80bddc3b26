package org.switchboard.synapse.federation.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.FakePeer;

/** The peer proof rule table (synapse-advanced §4.2, issue 18): pinned client certificate on TLS, token on loopback ws://. */
class PeerAuthorityTest {

    private static final String PIN_A = "sha256:" + "a1".repeat(32);
    private static final String PIN_OTHER = "sha256:" + "0f".repeat(32);

    @TempDir
    Path dir;

    @Test
    void theRuleTable() {
        Set<String> pinned = Set.of(PIN_A);
        Set<String> none = Set.of();
        // wss://: the pinned certificate, and only it
        assertTrue(PeerAuthority.proven(true, PIN_A, pinned, false, false), "pinned cert, no token, off loopback");
        assertTrue(PeerAuthority.proven(true, PIN_A, pinned, true, true), "pinned cert with token on loopback");
        assertFalse(PeerAuthority.proven(true, PIN_OTHER, pinned, true, true), "another certificate");
        assertFalse(PeerAuthority.proven(true, null, pinned, true, true), "no certificate");
        assertFalse(PeerAuthority.proven(true, PIN_A, none, true, true), "a grant without cert_pin admits no TLS peer");
        assertFalse(PeerAuthority.proven(true, null, none, true, true), "TLS with the token alone, even on loopback");
        // ws://: token on loopback, grant without a pin
        assertTrue(PeerAuthority.proven(false, null, none, true, true), "token on loopback ws://");
        assertFalse(PeerAuthority.proven(false, null, none, true, false), "plain ws:// off loopback");
        assertFalse(PeerAuthority.proven(false, null, none, false, true), "no token");
        assertFalse(PeerAuthority.proven(false, null, pinned, true, true), "a pinned grant refuses plain ws://");
        assertFalse(PeerAuthority.proven(false, PIN_A, pinned, true, true), "a pin claimed without TLS counts for nothing");
    }

    private PeerAuthority authority(boolean tokenSecured) throws Exception {
        Path file = dir.resolve("multihub.json");
        Files.writeString(file, """
                {"version":1,"grants":[
                  {"sender":"hub-a","namespace":"ACME","verbs":["message"],"cert_pin":"%s"},
                  {"sender":"hub-a","namespace":"OPS","verbs":["read"],"cert_pin":"%s"},
                  {"sender":"hub-t","namespace":"ACME","verbs":["message"]},
                  {"sender":"hub-old","namespace":"ACME","verbs":["message"],"cert_pin":"%s","revoked":true}]}
                """.formatted(PIN_A, PIN_A, PIN_A));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return new PeerAuthority(PolicySource.open(file, MultihubPolicy::load, MultihubPolicy.none()), tokenSecured);
    }

    private static Connection socket(String host, boolean tls, String pin, boolean token, int version) {
        Connection c = new Connection(new FakePeer(host), 0);
        c.transport(tls, pin);
        c.protocolVersion(version);
        if (token) {
            c.quotaPrincipal("auth-token:0011223344556677");
        }
        return c;
    }

    @Test
    void aTlsPeerIsProvenByItsPinnedCertificateFromAnyHost() throws Exception {
        PeerAuthority peers = authority(true);
        assertEquals("hub-a", peers.peerId(socket("203.0.113.7", true, PIN_A, true, 5), "hub-a", 5, 10));
        assertEquals("hub-a", peers.peerId(socket("127.0.0.1", true, PIN_A, false, 5), "hub-a", 5, 10),
                "an open hub: the certificate alone");
        assertNull(peers.peerId(socket("127.0.0.1", true, PIN_OTHER, true, 5), "hub-a", 5, 10));
        assertNull(peers.peerId(socket("127.0.0.1", true, null, true, 5), "hub-a", 5, 10));
        assertNull(peers.peerId(socket("127.0.0.1", false, null, true, 5), "hub-a", 5, 10), "pinned grant over ws://");
        assertNull(peers.peerId(socket("127.0.0.1", true, PIN_A, true, 4), "hub-a", 5, 10), "below the version");
        assertNull(peers.peerId(socket("127.0.0.1", true, PIN_A, true, 5), "hub-old", 5, 10), "revoked grant");
        assertNull(peers.peerId(socket("127.0.0.1", true, PIN_A, true, 5), "hub-t", 5, 10),
                "another sender's pin proves nothing for a sender without one");
    }

    @Test
    void aPlainPeerIsProvenByTheTokenOnLoopbackOnly() throws Exception {
        PeerAuthority peers = authority(true);
        assertEquals("hub-t", peers.peerId(socket("127.0.0.1", false, null, true, 5), "hub-t", 5, 10));
        assertEquals("hub-t", peers.peerId(socket("::1", false, null, true, 5), "hub-t", 5, 10));
        assertNull(peers.peerId(socket("192.0.2.1", false, null, true, 5), "hub-t", 5, 10), "ws:// off loopback");
        assertNull(peers.peerId(socket("127.0.0.1", false, null, false, 5), "hub-t", 5, 10), "no token");
        assertNull(peers.peerId(socket("127.0.0.1", true, null, true, 5), "hub-t", 5, 10), "wss:// needs a pinned certificate");
        assertNull(authority(false).peerId(socket("127.0.0.1", false, null, false, 5), "hub-t", 5, 10),
                "an open hub has no token proof");
    }
}
