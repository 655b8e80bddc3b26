package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;
import org.switchboard.synapse.idempotency.Mutation;

/**
 * Result of {@link ClaimBook#claim}: granted or denied, with the {@link Mutation} that was
 * committed (events appended, frames to send).
 */
public sealed interface ClaimDecision permits ClaimDecision.Granted, ClaimDecision.Denied {

    /** What was journalled and what to send. */
    Mutation mutation();

    /** Whether the claim was granted. */
    boolean granted();

    /**
     * The lease was granted (broadcast {@code claim_granted}, journal {@code claim}).
     *
     * @param claim    the new lease
     * @param renewal  the owner re-claimed its own live task
     * @param mutation journal {@code claim} event and the {@code claim_granted} broadcast
     */
    record Granted(TaskClaim claim, boolean renewal, Mutation mutation) implements ClaimDecision {
        @Override
        public boolean granted() {
            return true;
        }
    }

    /**
     * The claim was refused (private {@code claim_denied}, journal {@code claim_denial}).
     *
     * @param taskId     trimmed task id as requested
     * @param reasonCode one of {@link ClaimBook#REASON_CODES}
     * @param sentence   the refusal payload
     * @param evidence   the {@code claim_denial} payload
     * @param mutation   the evidence event and the private reply
     */
    record Denied(String taskId, String reasonCode, String sentence, JsonObject evidence, Mutation mutation)
            implements ClaimDecision {
        @Override
        public boolean granted() {
            return false;
        }
    }
}
