package org.switchboard.journal;

import java.util.ArrayList;
import java.util.List;

/**
 * Side rows waiting, on the current thread, for the next journal append made on that thread
 * ({@link GroupCommitter#submit}), which carries them in its own transaction.
 *
 * <p>Why thread-bound rather than a parameter (issue 17): the rows are produced by the frame
 * pipeline's message-authentication step (synapse-advanced §1.4 step 14) and must join the append
 * that the verb handler makes several layers further down (the claim book under its lock, the
 * resource offers, each through the keyed mutation flow); the frame is handled on one thread from
 * step 14 to the handler's append, so the thread identifies the frame. Whoever attaches rows owns
 * them until an append takes them: it must {@link #take} whatever is left when the frame is done
 * and write it some other way.
 */
public final class SideRows {

    private static final ThreadLocal<List<SideRow>> ATTACHED = new ThreadLocal<>();

    private SideRows() {
    }

    /** Attaches {@code row} to the current thread's next journal append. */
    public static void attach(SideRow row) {
        List<SideRow> rows = ATTACHED.get();
        if (rows == null) {
            rows = new ArrayList<>(2);
            ATTACHED.set(rows);
        }
        rows.add(row);
    }

    /** Removes and returns the rows attached on this thread (empty when none). */
    public static List<SideRow> take() {
        List<SideRow> rows = ATTACHED.get();
        if (rows == null) {
            return List.of();
        }
        ATTACHED.remove();
        return rows;
    }

    /** True when rows wait on this thread. */
    public static boolean attached() {
        return ATTACHED.get() != null;
    }
}
