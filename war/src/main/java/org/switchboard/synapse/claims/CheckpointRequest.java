package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;

/**
 * A parsed {@code checkpoint} frame (synapse-core §9.10).
 *
 * @param taskId trimmed {@code task_id}
 * @param token  the opaque resume token ({@code checkpoint}, or {@code payload}), not trimmed
 * @param epoch  the epoch guard
 */
public record CheckpointRequest(String taskId, String token, EpochGuard epoch) {

    /** Parses a checkpoint frame. */
    public static CheckpointRequest from(JsonObject frame) {
        return new CheckpointRequest(FrameFields.trimmed(frame, "task_id"), FrameFields.raw(frame, "checkpoint", "payload"),
                EpochGuard.from(frame));
    }
}
