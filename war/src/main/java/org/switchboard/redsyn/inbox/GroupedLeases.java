package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.redsyn.store.GroupedUpdates;
import org.switchboard.redsyn.store.RelayWriter;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.EnvelopeRenderer;
import org.switchboard.redsyn.message.MessageEntity;

/**
 * A take in two steps, holding no transaction while it waits: choose what waits and read it as it will be
 * delivered (one read), then lease it ({@link MessageEntity#LEASE_SQL}, committed with other requests'
 * updates by the {@link RelayWriter}). Each lease is conditional on the state and attempts read, so of two
 * takes racing for a message only one leases it, and what is delivered is what was read with one more
 * attempt; a message whose lease failed stays queued for the next take.
 */
@ApplicationScoped
public class GroupedLeases {

    private static final Logger LOG = Logger.getLogger(GroupedLeases.class.getName());

    /** The row count given to a lease that failed alone (it committed nothing). */
    static final int FAILED = -1;

    @Inject
    InboxService inbox;

    @Inject
    RelayWriter writer;

    /** Leases what is waiting for the agent (in order per session), up to the configured number of items. */
    public Taken take(long agentId, String node, int leaseSeconds, String replyTo) {
        long now = System.currentTimeMillis();
        List<InboxService.Chosen> chosen = inbox.choose(agentId, node, replyTo, now);
        if (chosen.isEmpty()) {
            return Taken.none(agentId);
        }
        long until = now + leaseSeconds * 1000L;
        List<GroupedUpdates.Update> leases = new ArrayList<>(chosen.size());
        for (InboxService.Chosen c : chosen) {
            leases.add(new GroupedUpdates.Update(MessageEntity.LEASE_SQL, List.of(DeliveryState.TAKEN, until, until, node, c.seq(),
                    c.envelope().attempts(), DeliveryState.QUEUED, DeliveryState.TAKEN, now)));
        }
        int[] counts = commit(leases);
        List<Long> leased = new ArrayList<>(chosen.size());
        List<JsonObject> items = new ArrayList<>(chosen.size());
        boolean failed = false;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 1) {
                // the lease matched the attempts read, so the row is what was read with one more attempt
                leased.add(chosen.get(i).seq());
                items.add(EnvelopeRenderer.delivered(chosen.get(i).envelope().withOneMoreAttempt()));
            }
            failed |= counts[i] == FAILED;
        }
        if (leased.isEmpty() && failed) {
            // nothing to deliver because the database failed, not because nothing waits: the poll says so
            throw new IllegalStateException("redsyn: leases not written");
        }
        return leased.isEmpty() ? Taken.none(agentId) : new Taken(agentId, items, leased, until, node);
    }

    /**
     * Each lease's row count: all queued before waiting, so one commit usually carries them together. Those
     * the writer refused run here in one transaction of their own; one that failed alone leased nothing
     * ({@link #FAILED}).
     */
    int[] commit(List<GroupedUpdates.Update> leases) {
        List<CompletableFuture<Integer>> pending = new ArrayList<>(leases.size());
        for (GroupedUpdates.Update lease : leases) {
            pending.add(writer.submit(lease));
        }
        int[] counts = new int[leases.size()];
        List<Integer> refused = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            try {
                counts[i] = pending.get(i).join();
            } catch (CompletionException | CancellationException e) {
                if (e.getCause() instanceof GroupedUpdates.UnavailableException) {
                    refused.add(i);
                } else {
                    counts[i] = FAILED;
                    LOG.log(Level.FINE, "redsyn: a lease failed and was not written; its message stays queued", e);
                }
            }
        }
        if (!refused.isEmpty()) {
            List<GroupedUpdates.Update> own = refused.stream().map(leases::get).toList();
            try {
                int[] ownCounts = writer.commitNow(own);
                for (int k = 0; k < ownCounts.length; k++) {
                    counts[refused.get(k)] = ownCounts[k];
                }
            } catch (SQLException e) {
                throw new IllegalStateException("redsyn: leases not written", e);
            }
        }
        return counts;
    }
}
