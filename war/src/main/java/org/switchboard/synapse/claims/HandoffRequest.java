package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;

/**
 * A parsed {@code handoff} frame (synapse-core §9.9).
 *
 * @param taskId trimmed {@code task_id} (or {@code payload})
 * @param to     trimmed {@code to_agent} (or {@code target}), "" when missing
 * @param note   trimmed {@code note}
 * @param epoch  the epoch guard
 */
public record HandoffRequest(String taskId, String to, String note, EpochGuard epoch) {

    /** Parses a handoff frame. */
    public static HandoffRequest from(JsonObject frame) {
        return new HandoffRequest(FrameFields.raw(frame, "task_id", "payload").strip(),
                FrameFields.raw(frame, "to_agent", "target").strip(), FrameFields.trimmed(frame, "note"),
                EpochGuard.from(frame));
    }
}
