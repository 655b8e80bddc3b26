package org.switchboard.synapse;

import java.util.concurrent.Executor;
import org.switchboard.journal.Journal;
import org.switchboard.synapse.wire.HubFrames;

/**
 * What every SYNAPSE service shares: settings, frame builder, connection registry, the journal
 * ({@code null} on a hub without one), counters, an executor for blocking journal reads, and where a
 * chat's fan-out runs once its commit completed ({@code publish}: in the server, directly on the
 * journal's completion thread; tests pass a queue to reorder it against journal reads).
 */
public record SynapseContext(SynapseSettings settings, HubFrames frames, ConnectionRegistry registry,
                             Journal journal, SynapseCounters counters, Executor blocking, Executor publish) {

    public boolean hasJournal() {
        return journal != null;
    }

    /**
     * Sends an encoded frame to every bound socket (unregistered sockets get no broadcasts), each copy
     * written with whatever else that socket has queued by then ({@link Peer#sendCoalesced}); the text's
     * UTF-8 is encoded once for all of them.
     */
    public void broadcast(String text) {
        SharedText frame = new SharedText(text);
        for (var connection : registry.boundConnections()) {
            connection.sendCoalesced(frame);
        }
    }
}
