package org.switchboard.redsyn.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The node that last listened: the later of the last take and the last listening announce. */
class ListeningNodeTest {

    @Test
    void theLaterOfTakeAndAnnounceWins() {
        assertEquals("server", ListeningNode.of(200, "server", 100, "laptop"));
        assertEquals("laptop", ListeningNode.of(100, "server", 200, "laptop"));
        assertEquals("laptop", ListeningNode.of(0, null, 200, "laptop"));
        assertEquals("server", ListeningNode.of(200, "server", 0, null));
        assertNull(ListeningNode.of(0, null, 0, null));
    }
}
