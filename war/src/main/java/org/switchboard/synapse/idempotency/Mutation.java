package org.switchboard.synapse.idempotency;

import java.util.List;
import org.switchboard.journal.JournalEvent;

/**
 * A change a rule class wants made durable before it is applied (journal-before-apply, core
 * §16.1): the events to append, in order, and the frames to send once they committed. For a keyed
 * request that {@link #succeeded()}, the wiring layer stores the first reply (the response, as the
 * exact frame it sends) as the operation record in the same transaction (§15.3); a refusal that
 * still journals evidence (a {@code claim_denial}) is not recorded.
 *
 * @param events    journal drafts, possibly empty (nothing to append)
 * @param replies   frames in the order they must be sent
 * @param succeeded whether this is a successful mutation (idempotency records only those)
 */
public record Mutation(List<JournalEvent.Draft> events, List<HubReply> replies, boolean succeeded) {

    /** Copies the lists. */
    public Mutation {
        events = List.copyOf(events);
        replies = List.copyOf(replies);
    }

    /** A successful mutation. */
    public Mutation(List<JournalEvent.Draft> events, List<HubReply> replies) {
        this(events, replies, true);
    }

    /** A refusal: nothing to record, possibly audit evidence to journal. */
    public static Mutation refusal(List<JournalEvent.Draft> events, List<HubReply> replies) {
        return new Mutation(events, replies, false);
    }

    /** The first reply (the response of a keyed request), or null. */
    public HubReply response() {
        return replies.isEmpty() ? null : replies.get(0);
    }
}
