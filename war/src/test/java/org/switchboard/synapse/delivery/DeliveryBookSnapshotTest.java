package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.snapshot.SnapshotReader;
import org.switchboard.journal.snapshot.SnapshotWriter;

/**
 * The delivery book's row encoding (issue 20) on states that traffic through the service rarely makes:
 * an idempotency pair that points at another request than the row's own, a null field, an open and a
 * finished request, and text that is no book. {@link DeliverySnapshotTest} covers real traffic.
 */
class DeliveryBookSnapshotTest {

    private static Aggregate request(String key, String idempotencyKey, Stage stage, long order) {
        DeliveryIntent intent = new DeliveryIntent("p/planner", "rq-" + key, idempotencyKey, "p/builder", "inc-1", "queue",
                List.of("follow_up"), null, "body of " + key, 1_767_229_200.25);
        return new Aggregate(key, intent, "hub-a", "hub-a", "d".repeat(64), "queue", "exact", stage, false, false, false,
                1, order, order, null);
    }

    private static String text(DeliveryBook book) {
        return SnapshotWriter.write(book::writeSnapshot);
    }

    private static DeliveryBook restored(String text) {
        DeliveryBook book = new DeliveryBook();
        SnapshotReader.read("delivery", text, in -> {
            book.readSnapshot(in);
            return null;
        });
        return book;
    }

    @Test
    void aBookReadsBackToTheSameIndexesAndText() {
        DeliveryBook book = new DeliveryBook();
        book.restore(request("k1", "same-pair", Stage.COMPLETED, 1));
        book.restore(request("k2", "same-pair", Stage.QUEUED, 2)); // a replayed second admission takes the pair over
        book.restore(request("k3", "own-pair", Stage.QUEUED, 3));
        book.restore(request("k3", "own-pair", Stage.QUEUED, 3).moved(Stage.COMPLETED), "m-1", "e".repeat(64));

        String text = text(book);
        DeliveryBook copy = restored(text);

        assertEquals(text, text(copy));
        assertSame(copy.get("k2"), copy.byIdempotency("p/planner", "same-pair"), "the pair maps to the later request");
        assertSame(copy.get("k3"), copy.byIdempotency("p/planner", "own-pair"));
        assertEquals("e".repeat(64), copy.mutation("k3", "m-1").digest());
        assertNull(copy.get("k1").intent().taskId());
        assertEquals(List.of(copy.get("k2")), copy.queuedFor("p/builder", "inc-1"), "only the queued request is open");
        assertEquals(book.openByStage(), copy.openByStage());
        assertEquals(3, copy.size());
    }

    @Test
    void textThatIsNoBookIsRefusedAsUnreadable() {
        DeliveryBook book = new DeliveryBook();
        book.restore(request("k1", "pair", Stage.QUEUED, 1));
        String text = text(book);
        for (String broken : List.of(text.substring(0, text.length() / 2), text.replace("\"queued\"", "\"nonsense\""),
                text.replace("\"k1\",", "1,"), text + "[]", "{}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> restored(broken), broken);
            assertTrue(e.getMessage().startsWith("delivery snapshot part"), e.getMessage());
        }
    }
}
