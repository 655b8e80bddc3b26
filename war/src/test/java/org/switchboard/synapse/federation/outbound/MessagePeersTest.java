package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

class MessagePeersTest {

    private static final String PIN = "sha256:" + "Ab".repeat(32);

    @Test
    void parsesPeersAndPins() {
        MessagePeers p = MessagePeers.parse(" hub-b=ws://127.0.0.1:9877/ , hub-c=wss://peer.example:443/,hub-d=ws://localhost:1/",
                "hub-c=" + PIN, 600);
        assertNull(p.fault());
        assertEquals(3, p.peers().size());
        assertEquals(URI.create("ws://127.0.0.1:9877/"), p.peers().get("hub-b").uri());
        assertNull(p.peers().get("hub-b").pinHex());
        assertEquals("ab".repeat(32), p.peers().get("hub-c").pinHex());
        assertTrue(p.peers().get("hub-c").tls());
        assertEquals(600, p.ttlSeconds());
    }

    @Test
    void emptyIsNoPeers() {
        MessagePeers p = MessagePeers.parse("", "", 86400);
        assertNull(p.fault());
        assertTrue(p.peers().isEmpty());
    }

    @Test
    void plainWsOffLoopbackIsRefusedNamingTheKey() {
        for (String host : new String[] {"10.0.0.5", "peer.example", "128.0.0.1", "127.0.0.1.example"}) {
            MessagePeers p = MessagePeers.parse("hub-b=ws://" + host + ":9877/", "", 86400);
            assertTrue(p.fault() != null && p.fault().contains(MessagePeers.PEERS_KEY), host + ": " + p.fault());
            assertTrue(p.peers().isEmpty());
        }
        assertNull(MessagePeers.parse("hub-b=ws://127.8.9.10:1/", "", 1).fault());
        assertNull(MessagePeers.parse("hub-b=ws://[::1]:1/", "", 1).fault());
    }

    @Test
    void wssNeedsAPinAndPinsNeedAPeer() {
        assertTrue(MessagePeers.parse("hub-c=wss://peer.example/", "", 1).fault().contains(MessagePeers.PINS_KEY));
        assertTrue(MessagePeers.parse("hub-b=ws://127.0.0.1:1/", "hub-x=" + PIN, 1).fault().contains(MessagePeers.PINS_KEY));
        assertTrue(MessagePeers.parse("hub-c=wss://p/", "hub-c=sha256:abc", 1).fault().contains(MessagePeers.PINS_KEY));
    }

    @Test
    void malformedEntriesAreRefused() {
        assertTrue(MessagePeers.parse("hub-b", "", 1).fault().contains(MessagePeers.PEERS_KEY));
        assertTrue(MessagePeers.parse("-b=ws://127.0.0.1/", "", 1).fault().contains(MessagePeers.PEERS_KEY));
        assertTrue(MessagePeers.parse("hub-b=http://127.0.0.1/", "", 1).fault().contains(MessagePeers.PEERS_KEY));
        assertTrue(MessagePeers.parse("hub-b=ws://127.0.0.1/,hub-b=ws://127.0.0.2/", "", 1).fault().contains("twice"));
        assertTrue(MessagePeers.parse("hub-b=ws://127.0.0.1/", "", 0).fault().contains(MessagePeers.TTL_KEY));
    }

    @Test
    void faultNeverEchoesTheAddress() {
        String fault = MessagePeers.parse("hub-b=ws://user:s3cret@127.0.0.1/", "", 1).fault();
        assertTrue(fault.contains(MessagePeers.PEERS_KEY));
        assertFalse(fault.contains("s3cret"));
    }
}
