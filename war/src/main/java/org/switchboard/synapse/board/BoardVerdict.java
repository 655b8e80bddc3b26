package org.switchboard.synapse.board;

import org.switchboard.synapse.idempotency.Mutation;

/**
 * Result of a blackboard verb.
 *
 * @param accepted whether the board changed
 * @param sentence refusal text (private {@code error}) or the success payload
 * @param task     the task after the change (declare/update), else null
 * @param note     the appended note (progress), else null
 * @param mutation committed events (empty on refusal) and the frames to send
 * @param failure  the journal failure behind a rolled-back mutation (log it server-side only), else null
 */
public record BoardVerdict(boolean accepted, String sentence, LedgerTask task, ProgressNote note, Mutation mutation,
                           Throwable failure) {
}
