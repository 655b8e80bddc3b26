package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.MessageEntity;

/**
 * A take in three steps, none holding a transaction while another waits: choose what waits (a read), lease
 * it ({@link MessageEntity#LEASE_SQL}, committed with other requests' updates by the {@link InboxWriter}),
 * then read what was leased to deliver it. Each lease is conditional, so of two takes racing for a message
 * only one leases it; a message whose lease failed stays queued for the next take.
 */
@ApplicationScoped
public class GroupedLeases {

    private static final Logger LOG = Logger.getLogger(GroupedLeases.class.getName());

    /** The row count given to a lease that failed alone (it committed nothing). */
    private static final int FAILED = -1;

    @Inject
    InboxService inbox;

    @Inject
    InboxWriter writer;

    /** Leases what is waiting for the agent (in order per session), up to the configured number of items. */
    public Taken take(long agentId, String node, int leaseSeconds, String replyTo) {
        long now = System.currentTimeMillis();
        List<Long> chosen = inbox.choose(agentId, node, replyTo, now);
        if (chosen.isEmpty()) {
            return Taken.none(agentId);
        }
        long until = now + leaseSeconds * 1000L;
        List<GroupedUpdates.Update> leases = new ArrayList<>(chosen.size());
        for (Long seq : chosen) {
            leases.add(new GroupedUpdates.Update(MessageEntity.LEASE_SQL,
                    List.of(DeliveryState.TAKEN, until, until, node, seq, DeliveryState.QUEUED, DeliveryState.TAKEN, now)));
        }
        int[] counts = commit(leases);
        List<Long> leased = new ArrayList<>(chosen.size());
        boolean failed = false;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 1) {
                leased.add(chosen.get(i));
            }
            failed |= counts[i] == FAILED;
        }
        if (leased.isEmpty() && failed) {
            // nothing to deliver because the database failed, not because nothing waits: the poll says so
            throw new IllegalStateException("redsyn: leases not written");
        }
        return leased.isEmpty() ? Taken.none(agentId) : inbox.delivered(agentId, leased, until, node);
    }

    /**
     * Each lease's row count: all queued before waiting, so one commit usually carries them together. Those
     * the writer refused run here in one transaction of their own; one that failed alone leased nothing
     * ({@link #FAILED}).
     */
    private int[] commit(List<GroupedUpdates.Update> leases) {
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
