package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;

/** The journalled replay store's periodic prune: off the frame's thread, one at a time, never lost for good. */
class JournalNonceStoreTest {

    private final NonceCacheTest.MapStore table = new NonceCacheTest.MapStore();
    private final Queue<Runnable> pruning = new ArrayDeque<>();
    private final JournalNonceStore store = new JournalNonceStore(new InMemoryJournal().writingSideRows(), table, pruning::add);

    @Test
    void thePruneRunsOnTheExecutorNotTheCallersThread() {
        table.record("expired", 99);
        table.record("live", 120);
        store.prune(100);
        assertEquals(2, table.rows.size(), "nothing deleted on the caller's thread");
        assertEquals(1, pruning.size());
        pruning.poll().run();
        assertEquals(java.util.Set.of("live"), table.rows.keySet());
    }

    @Test
    void aPruneAskedForWhileOneIsPendingIsDroppedAndTheNextOneRuns() {
        table.record("a", 99);
        store.prune(100);
        store.prune(101);
        assertEquals(1, pruning.size(), "one prune at a time");
        pruning.poll().run();
        table.record("b", 104);
        store.prune(105);
        assertEquals(1, pruning.size(), "the finished prune lets the next one go");
        pruning.poll().run();
        assertEquals(java.util.Set.of(), table.rows.keySet());
    }

    @Test
    void aRejectedPruneDoesNotBlockLaterOnes() {
        boolean[] reject = {true};
        JournalNonceStore stopping = new JournalNonceStore(new InMemoryJournal().writingSideRows(), table, task -> {
            if (reject[0]) {
                throw new RejectedExecutionException("stopping");
            }
            task.run();
        });
        table.record("a", 99);
        stopping.prune(100);
        assertEquals(1, table.rows.size());
        reject[0] = false;
        stopping.prune(100);
        assertEquals(0, table.rows.size());
    }
}
