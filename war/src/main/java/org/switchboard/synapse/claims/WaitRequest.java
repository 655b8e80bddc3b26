package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;

/**
 * A parsed {@code wait_request} frame (synapse-core §9.11).
 *
 * @param taskId trimmed {@code task_id} (or {@code payload})
 */
public record WaitRequest(String taskId) {

    /** Parses a wait_request frame. */
    public static WaitRequest from(JsonObject frame) {
        return new WaitRequest(FrameFields.raw(frame, "task_id", "payload").strip());
    }
}
