package org.switchboard.synapse;

/**
 * The running hub's context for container beans that are not part of the wiring (coordination
 * state, snapshots). The hub's runtime implements it, so features need not depend on the wiring.
 */
public interface SynapseContextSource {

    /** The context of the hub, built (and its journal replayed) on first use. */
    SynapseContext context();

    /**
     * The context, with {@code sink} fed the journal events of {@code kinds} by the hub's one start-up
     * scan when that scan has not run yet. Returns false when it has (or there is no shared scan): the
     * caller then reads the journal itself.
     */
    default boolean contextWithStartupReplay(java.util.Set<String> kinds,
                                             java.util.function.Consumer<org.switchboard.journal.JournalEvent> sink) {
        context();
        return false;
    }

    /**
     * As {@link #contextWithStartupReplay(java.util.Set, java.util.function.Consumer)}, for a reader whose
     * replayed state {@code parts} can snapshot and restore (issue 20): a scan starting from a snapshot
     * restores them and feeds {@code sink} only the later events.
     */
    default boolean contextWithStartupReplay(java.util.Set<String> kinds,
                                             java.util.function.Consumer<org.switchboard.journal.JournalEvent> sink,
                                             java.util.List<org.switchboard.journal.snapshot.SnapshotPart> parts) {
        return contextWithStartupReplay(kinds, sink);
    }
}
