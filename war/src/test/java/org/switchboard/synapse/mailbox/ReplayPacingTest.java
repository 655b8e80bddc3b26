package org.switchboard.synapse.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.TestHub;

/**
 * The mailbox replay on registration reads the journal a page at a time and sends the next page only
 * once the socket took the previous one: a large backlog is never queued for a socket all at once.
 */
class ReplayPacingTest {

    @Test
    void aBacklogIsReplayedPageByPageAsTheSocketTakesIt() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("p/alice");
        int backlog = 2 * MailboxService.REPLAY_PAGE + 10;
        for (int i = 0; i < backlog; i++) {
            alice.chat("p/bob", String.format("%04d", i));
        }
        TestHub.Client bob = test.connect("p/bob");
        bob.peer().holdWrites();
        bob.send(TestHub.frame("heartbeat", "System", "online").add("mailbox", true).add("since_seq", 0));
        List<JsonObject> first = bob.peer().ofType("chat");
        assertEquals(MailboxService.REPLAY_PAGE, first.size(), "one page until the socket takes it");

        bob.peer().releaseWrites(true); // from here on writes complete at once: the rest follows
        List<JsonObject> all = bob.peer().ofType("chat");
        assertEquals(backlog, all.size());
        for (int i = 0; i < backlog; i++) {
            assertEquals(String.format("%04d", i), all.get(i).getString("payload"), "in order, each once");
            assertEquals(true, all.get(i).getBoolean("replayed"));
        }
    }
}
