package org.switchboard.journal.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.switchboard.journal.JournalEvent;

/**
 * The check every snapshot part is held to (issue 20): for each cut k of an event sequence, "replay all"
 * and "replay the first k, snapshot, restore into a fresh holder, replay the rest" give equal state.
 * State is compared by the holders' own snapshot texts plus an observable {@code view} of the caller's
 * choice, so a restore that drops anything its part holds shows up.
 */
public final class SnapshotEquivalence {

    private SnapshotEquivalence() {
    }

    /**
     * Checks every cut of {@code events} (step {@code step}); {@code view} renders state a test can see
     * without the snapshot (e.g. pending counts). Also checks the full replay's state is not the empty
     * holder's, so a sequence that builds nothing cannot pass vacuously.
     */
    public static <H> void check(List<JournalEvent> events, int step, Supplier<H> fresh,
                                 BiConsumer<H, JournalEvent> replay, Function<H, SnapshotPart> part,
                                 Function<H, String> view) {
        H all = fresh.get();
        events.forEach(e -> replay.accept(all, e));
        String expected = part.apply(all).snapshotPart();
        String expectedView = view.apply(all);
        assertNotEquals(part.apply(fresh.get()).snapshotPart(), expected, "the events build no state");
        for (int k = 0; k <= events.size(); k += Math.max(1, step)) {
            H first = fresh.get();
            events.subList(0, k).forEach(e -> replay.accept(first, e));
            String text = part.apply(first).snapshotPart();
            H restored = fresh.get();
            part.apply(restored).restorePart(text);
            assertEquals(text, part.apply(restored).snapshotPart(), "restore then snapshot at cut " + k);
            events.subList(k, events.size()).forEach(e -> replay.accept(restored, e));
            assertEquals(expected, part.apply(restored).snapshotPart(), "state after cut " + k);
            assertEquals(expectedView, view.apply(restored), "observable state after cut " + k);
        }
    }
}
