package org.switchboard.journal.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class SnapshotTextTest {

    private static final JsonObject PART = SnapshotText.object(
            "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"rows\":[[1,\"x\"],[2,\"y\"]],\"mixed\":[{\"id\":\"c\"},3]}");

    @Test
    void eachObjectHandsOverTheArraysObjectsInOrder() {
        List<String> ids = new ArrayList<>();
        SnapshotText.eachObject(PART, "items", o -> ids.add(o.getString("id")));
        assertEquals(List.of("a", "b"), ids);
    }

    @Test
    void eachArrayHandsOverTheArraysRowsInOrder() {
        List<String> rows = new ArrayList<>();
        SnapshotText.eachArray(PART, "rows", r -> rows.add(r.getInt(0) + r.getString(1)));
        assertEquals(List.of("1x", "2y"), rows);
    }

    @Test
    void aMissingArrayOrAnElementOfTheWrongKindFailsAsTheReadersLoopsDid() {
        assertThrows(NullPointerException.class, () -> SnapshotText.eachObject(PART, "absent", o -> { }));
        List<String> before = new ArrayList<>();
        assertThrows(ClassCastException.class, () -> SnapshotText.eachObject(PART, "mixed", o -> before.add(o.getString("id"))));
        assertEquals(List.of("c"), before, "the elements before the bad one were handed over");
        assertThrows(ClassCastException.class, () -> SnapshotText.eachArray(PART, "items", r -> { }));
    }

    @Test
    void whatTheReaderThrowsReachesTheCallerUnchanged() {
        IllegalArgumentException thrown = new IllegalArgumentException("a task without id");
        assertEquals(thrown, assertThrows(IllegalArgumentException.class,
                () -> SnapshotText.eachObject(PART, "items", o -> {
                    throw thrown;
                })));
    }

    @Test
    void aReadEntryIsHandedOverAndAnUnreadableOneFailsWithTheCallersMessage() {
        List<String> ids = new ArrayList<>();
        SnapshotText.eachObject(PART, "items", o -> o.getString("id").toUpperCase(), "unreadable", ids::add);
        assertEquals(List.of("A", "B"), ids);

        List<String> before = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotText.eachObject(PART,
                "items", o -> o.getString("id").equals("b") ? null : o.getString("id"), "items part: an item without id",
                before::add));
        assertEquals("items part: an item without id", e.getMessage());
        assertEquals(List.of("a"), before);
    }

    @Test
    void lockedHoldsTheLockWhileTheBodyRunsAndReleasesItAfterAFailure() {
        ReentrantLock lock = new ReentrantLock();
        boolean[] held = new boolean[1];
        SnapshotText.locked(lock, () -> held[0] = lock.isHeldByCurrentThread());
        assertTrue(held[0]);
        assertFalse(lock.isLocked());
        assertThrows(IllegalStateException.class, () -> SnapshotText.locked(lock, () -> {
            throw new IllegalStateException("reader failed");
        }));
        assertFalse(lock.isLocked(), "a failing reader left the lock held");
    }

    @Test
    void objectRefusesTextThatIsNoJsonObject() {
        assertThrows(IllegalArgumentException.class, () -> SnapshotText.object(null));
        assertThrows(IllegalArgumentException.class, () -> SnapshotText.object("[1]"));
        assertThrows(IllegalArgumentException.class, () -> SnapshotText.object("{"));
    }
}
