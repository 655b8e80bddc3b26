package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.RequestDigest;

/**
 * A parsed {@code release} frame (synapse-core §9.7).
 *
 * @param taskId        trimmed task id
 * @param epoch         the epoch guard
 * @param idemKey       {@code idem_key} or "" (not keyed); becomes {@code release_operation_id}
 * @param requestDigest canonical request digest when keyed, else ""
 * @param receipt       close-out evidence
 */
public record ReleaseRequest(String taskId, EpochGuard epoch, String idemKey, String requestDigest, ReleaseReceipt receipt) {

    /**
     * Parses a release; when keyed, computes the digest of the routed request (throws
     * {@link org.switchboard.synapse.idempotency.NonCanonicalException} if not canonical).
     */
    public static ReleaseRequest from(JsonObject frame, String boundSender) {
        String key = IdempotencyLedger.idemKey(frame);
        String digest = key.isEmpty() ? "" : RequestDigest.of(frame, boundSender, "release");
        return new ReleaseRequest(FrameFields.raw(frame, "task_id", "payload").strip(), EpochGuard.from(frame), key, digest,
                ReleaseReceipt.from(frame));
    }

    /** Whether the verdict carries {@code release_operation_id} and {@code request_digest}. */
    public boolean keyed() {
        return !idemKey.isEmpty();
    }
}
