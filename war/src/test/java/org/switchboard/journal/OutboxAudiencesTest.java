package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutboxAudiencesTest {

    private static SequencedBatch.Outbox row(String sender, Double deliveredAt) {
        return new SequencedBatch.Outbox(1, "n-" + sender, 7, "delivered", sender, "{}", 0, deliveredAt);
    }

    @Test
    void aSenderWithoutWaitingRowsNeedsNoRead() {
        OutboxAudiences audiences = new OutboxAudiences();
        audiences.seed(List.of("alice"));
        audiences.committed(List.of(row("bob", null), row("carol", 12.5)));
        assertNotEquals(0, audiences.mark("alice"), "seeded from storage");
        assertNotEquals(0, audiences.mark("bob"), "a waiting row committed");
        assertEquals(0, audiences.mark("carol"), "a row stored as delivered waits for nobody");
        assertEquals(0, audiences.mark("dave"));
    }

    @Test
    void aReadThatFoundNoneClearsTheSenderUnlessANewerCommitMarkedIt() {
        OutboxAudiences audiences = new OutboxAudiences();
        audiences.committed(List.of(row("bob", null)));
        long mark = audiences.mark("bob");
        audiences.foundNone("bob", mark);
        assertEquals(0, audiences.mark("bob"), "read after the commit and found it delivered");

        audiences.committed(List.of(row("bob", null)));
        long raced = audiences.mark("bob");
        audiences.committed(List.of(row("bob", null))); // committed while that read ran; it may not have seen it
        audiences.foundNone("bob", raced);
        assertNotEquals(0, audiences.mark("bob"), "the newer row is still read on the next registration");
        assertEquals(1, audiences.marked());
    }
}
