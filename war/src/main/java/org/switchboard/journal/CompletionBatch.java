package org.switchboard.journal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the completions of one group commit as a batch on the current thread: work they start that
 * can wait until the batch is over (a socket's write, say) registers once by key and runs at its end,
 * so the frames of many chats to one socket leave in one write.
 *
 * <p>Why the current batch is found through a {@code ThreadLocal} and not passed as a parameter
 * (issue 15): the batch is opened by the journal's completion thread ({@link GroupCommitter}) and
 * consulted where a frame is written ({@code WebSocketPeer.send}); between the two run the callbacks
 * that features attach to a commit's {@code CompletableFuture} (about 20 attach sites) and the sends
 * they make (about 40 {@code send}/{@code broadcast} call sites in 15 files of chat, receipts,
 * mailbox, query, coordination and session). A parameter would have to ride every future's value and
 * every send signature; and a callback attached after its future completed runs on the attaching
 * thread, where a passed batch would already be over, a case the thread-bound lookup answers by
 * itself ({@link #defer} returns false and the write goes now). Measured cost of the lookup: 1.3 to
 * 2.6 ns per {@code ThreadLocal.get} (200 million lookups, JDK 17, the 2-core build machine,
 * 2026-12-01), about two per directed chat against 38.2 &micro;s of hub CPU per chat in
 * {@code SynapseChatBench}: under 0.02 %.
 */
public final class CompletionBatch {

    private static final Logger LOG = Logger.getLogger(CompletionBatch.class.getName());
    private static final ThreadLocal<CompletionBatch> CURRENT = new ThreadLocal<>();

    private final Map<Object, Runnable> atEnd = new LinkedHashMap<>();

    private CompletionBatch() {
    }

    /** Runs {@code completions}, then every action deferred during them, in the order first deferred. */
    public static void run(Runnable completions) {
        if (CURRENT.get() != null) {
            completions.run();
            return;
        }
        CompletionBatch batch = new CompletionBatch();
        CURRENT.set(batch);
        try {
            completions.run();
        } finally {
            CURRENT.remove(); // what the deferred actions start themselves runs at once
            for (Runnable action : batch.atEnd.values()) {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "deferred completion action failed", e);
                }
            }
        }
    }

    /**
     * Inside a batch, registers {@code action} to run once at its end (a second call with the same
     * key is ignored) and returns true; outside one, returns false and the caller runs it now.
     */
    public static boolean defer(Object key, Runnable action) {
        CompletionBatch batch = CURRENT.get();
        if (batch == null) {
            return false;
        }
        batch.atEnd.putIfAbsent(key, action);
        return true;
    }
}
