package org.switchboard.synapse.board;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A parsed {@code ledger_task} frame (synapse-advanced §10.2).
 *
 * @param problem         parse-level refusal ({@code expected_version} type, {@code causal_parent} shape), or null
 * @param taskId          trimmed {@code task_id}
 * @param title           trimmed {@code title}
 * @param description     {@code description} as sent, or ""
 * @param dependsOn       trimmed, distinct, non-empty {@code depends_on} strings other than the task itself
 * @param expectedVersion {@code expected_version} when a number, else null
 * @param suggestedOwner  trimmed {@code suggested_owner}
 * @param project         trimmed {@code project}
 * @param causalParent    {@code causal_parent} when an object, else null
 */
public record LedgerTaskRequest(String problem, String taskId, String title, String description, List<String> dependsOn,
                                JsonNumber expectedVersion, String suggestedOwner, String project, JsonObject causalParent) {

    /** Parses a ledger_task frame. */
    public static LedgerTaskRequest from(JsonObject frame) {
        String taskId = BoardFields.trimmed(frame, "task_id");
        return new LedgerTaskRequest(BoardFields.problems(frame), taskId, BoardFields.trimmed(frame, "title"),
                BoardFields.string(frame, "description"), dependencies(frame.get("depends_on"), taskId),
                BoardFields.expectedVersion(frame), BoardFields.trimmed(frame, "suggested_owner"),
                BoardFields.trimmed(frame, "project"), BoardFields.causalParent(frame));
    }

    private static List<String> dependencies(JsonValue value, String self) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (value != null && value.getValueType() == JsonValue.ValueType.ARRAY) {
            for (JsonValue v : value.asJsonArray()) {
                if (v instanceof JsonString s) {
                    String d = s.getString().strip();
                    if (!d.isEmpty() && !d.equals(self)) {
                        out.add(d);
                    }
                }
            }
        }
        return List.copyOf(out);
    }
}
