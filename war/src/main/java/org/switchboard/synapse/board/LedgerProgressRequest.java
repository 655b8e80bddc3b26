package org.switchboard.synapse.board;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * A parsed {@code ledger_progress} frame (synapse-advanced §10.4).
 *
 * @param taskId trimmed {@code task_id}
 * @param kind   trimmed {@code kind}, {@code note} when missing or blank
 * @param text   {@code text} if a string, else {@code payload} if a string, else ""
 */
public record LedgerProgressRequest(String taskId, String kind, String text) {

    /** Parses a ledger_progress frame. */
    public static LedgerProgressRequest from(JsonObject frame) {
        String kind = frame.get("kind") instanceof JsonString s && !s.getString().strip().isEmpty()
                ? s.getString().strip() : "note";
        String text = frame.get("text") instanceof JsonString ? BoardFields.string(frame, "text")
                : BoardFields.string(frame, "payload");
        return new LedgerProgressRequest(BoardFields.trimmed(frame, "task_id"), kind, text);
    }
}
