package org.switchboard.redsyn.inbox;

import jakarta.json.JsonObject;
import java.util.List;

/**
 * What one take leased: the envelopes to hand out, and what identifies this lease, so it can be given
 * back (without counting an attempt) when the poll it was meant for turns out to be gone.
 */
public record Taken(long agentId, List<JsonObject> items, List<Long> seqs, long leaseUntil, String node) {

    /** Nothing taken. */
    public static Taken none(long agentId) {
        return new Taken(agentId, List.of(), List.of(), 0, null);
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }
}
