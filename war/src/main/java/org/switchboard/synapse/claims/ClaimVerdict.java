package org.switchboard.synapse.claims;

import org.switchboard.synapse.board.ProgressNote;
import org.switchboard.synapse.idempotency.Mutation;

/**
 * Result of a claim-family verb other than {@code claim} ({@code release}, {@code task_update},
 * {@code handoff}, {@code checkpoint}, {@code wait_request}).
 *
 * @param accepted whether the verb took effect
 * @param taskId   the task concerned (trimmed)
 * @param sentence refusal or success payload
 * @param claim    the lease after the change (null after a release or on refusal)
 * @param note     the progress note posted with it, or null
 * @param mutation events that were committed (empty on refusal) and frames to send
 */
public record ClaimVerdict(boolean accepted, String taskId, String sentence, TaskClaim claim, ProgressNote note,
                           Mutation mutation) {
}
