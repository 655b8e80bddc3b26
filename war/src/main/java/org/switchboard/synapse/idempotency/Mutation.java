package org.switchboard.synapse.idempotency;

import java.util.List;
import org.switchboard.journal.JournalEvent;

/**
 * A change a rule class wants made durable before it is applied (journal-before-apply, core
 * §16.1): the events to append, in order, and the frames to send once they committed. For a keyed
 * request the wiring layer stores the first reply (the response) as the operation record in the
 * same transaction (§15.3).
 *
 * @param events  journal drafts, possibly empty (nothing to append)
 * @param replies frames in the order they must be sent
 */
public record Mutation(List<JournalEvent.Draft> events, List<HubReply> replies) {

    /** Copies the lists. */
    public Mutation {
        events = List.copyOf(events);
        replies = List.copyOf(replies);
    }

    /** The first reply (the response of a keyed request), or null. */
    public HubReply response() {
        return replies.isEmpty() ? null : replies.get(0);
    }
}
