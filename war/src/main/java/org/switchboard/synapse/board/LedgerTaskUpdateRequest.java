package org.switchboard.synapse.board;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * A parsed {@code ledger_task_update} frame (synapse-advanced §10.3).
 *
 * @param problem         parse-level refusal ({@code expected_version} type, {@code causal_parent} shape), or null
 * @param taskId          trimmed {@code task_id}
 * @param status          trimmed {@code status}, "" = unchanged
 * @param expectedVersion {@code expected_version} when a number, else null
 * @param suggestedOwner  trimmed {@code suggested_owner}, null = unchanged (absent or not a string)
 * @param project         trimmed {@code project}, null = unchanged (absent or not a string)
 * @param causalParent    {@code causal_parent} when an object, else null
 */
public record LedgerTaskUpdateRequest(String problem, String taskId, String status, JsonNumber expectedVersion,
                                      String suggestedOwner, String project, JsonObject causalParent) {

    /** Parses a ledger_task_update frame. */
    public static LedgerTaskUpdateRequest from(JsonObject frame) {
        return new LedgerTaskUpdateRequest(BoardFields.problems(frame), BoardFields.trimmed(frame, "task_id"),
                BoardFields.trimmed(frame, "status"), BoardFields.expectedVersion(frame),
                frame.get("suggested_owner") instanceof JsonString s ? s.getString().strip() : null,
                frame.get("project") instanceof JsonString s ? s.getString().strip() : null,
                BoardFields.causalParent(frame));
    }
}
