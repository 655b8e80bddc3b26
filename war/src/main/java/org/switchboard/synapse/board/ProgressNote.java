package org.switchboard.synapse.board;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.Set;

/**
 * A blackboard progress note (synapse-core §10.1).
 *
 * @param taskId   task the note is about, {@code ""} = board-wide
 * @param author   bound name of the poster
 * @param kind     note, blocked, assessment, usage or approval
 * @param text     the note
 * @param postedAt epoch seconds
 */
public record ProgressNote(String taskId, String author, String kind, String text, double postedAt) {

    /** The accepted kinds. */
    public static final Set<String> KINDS = Set.of("note", "blocked", "assessment", "usage", "approval");

    /** The wire/journal projection {@code {task_id, author, kind, text, posted_at}}. */
    public JsonObject projection() {
        return PROVIDER.createObjectBuilder()
                .add("task_id", taskId)
                .add("author", author)
                .add("kind", kind)
                .add("text", text)
                .add("posted_at", postedAt)
                .build();
    }

    /** Reads a projection (journal replay); null if author or kind is missing. */
    public static ProgressNote fromProjection(JsonObject o) {
        String author = o.get("author") instanceof JsonString s ? s.getString() : null;
        String kind = o.get("kind") instanceof JsonString s ? s.getString() : null;
        if (author == null || kind == null) {
            return null;
        }
        return new ProgressNote(o.get("task_id") instanceof JsonString s ? s.getString() : "", author, kind,
                o.get("text") instanceof JsonString s ? s.getString() : "",
                o.get("posted_at") instanceof JsonNumber n ? n.doubleValue() : 0.0);
    }
}
