package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;

/**
 * A parsed {@code task_update} frame (synapse-core §9.8).
 *
 * @param taskId                   trimmed {@code task_id} (or {@code id})
 * @param status                   trimmed {@code status}, "" = unchanged
 * @param note                     {@code note} as sent, null = unchanged
 * @param dataRef                  {@code data_ref} as sent, null = unchanged
 * @param expectedVersion          {@code expected_version}, or null when absent or malformed
 * @param expectedVersionMalformed {@code expected_version} was sent but is not an integer
 * @param epoch                    the epoch guard
 */
public record TaskUpdateRequest(String taskId, String status, String note, String dataRef, Long expectedVersion,
                                boolean expectedVersionMalformed, EpochGuard epoch) {

    /** Parses a task_update frame. */
    public static TaskUpdateRequest from(JsonObject frame) {
        Long expected = FrameFields.integer(frame.get("expected_version"));
        return new TaskUpdateRequest(FrameFields.raw(frame, "task_id", "id").strip(), FrameFields.trimmed(frame, "status"),
                FrameFields.string(frame, "note"), FrameFields.string(frame, "data_ref"), expected,
                !FrameFields.absent(frame, "expected_version") && expected == null, EpochGuard.from(frame));
    }
}
