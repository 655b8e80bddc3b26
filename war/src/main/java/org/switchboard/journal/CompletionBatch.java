package org.switchboard.journal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the completions of one group commit as a batch on the current thread: work they start that
 * can wait until the batch is over (a socket's write, say) registers once by key and runs at its end,
 * so the frames of many chats to one socket leave in one write.
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
