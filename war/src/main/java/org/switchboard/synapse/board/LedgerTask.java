package org.switchboard.synapse.board;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A blackboard task (synapse-core §10.1). Immutable.
 *
 * @param taskId         shares the namespace with claims but is independent of them
 * @param title          required
 * @param description    free text
 * @param dependsOn      trimmed, de-duplicated, without self-reference
 * @param status         open, in_progress, blocked, done, cancelled
 * @param suggestedOwner advisory owner
 * @param project        namespace scope, {@code ""} = unscoped
 * @param version        1 at declaration, +1 per accepted mutation
 * @param createdBy      first declarer
 * @param createdAt      declaration time
 * @param updatedAt      last accepted mutation
 */
public record LedgerTask(String taskId, String title, String description, List<String> dependsOn, String status,
                         String suggestedOwner, String project, long version, String createdBy, double createdAt,
                         double updatedAt) {

    /** Every ledger status. */
    public static final Set<String> STATUSES = Set.of("open", "in_progress", "blocked", "done", "cancelled");
    /** Statuses after which a task no longer blocks dependants. */
    public static final Set<String> TERMINAL = Set.of("done", "cancelled");

    /** Copies the dependency list. */
    public LedgerTask {
        dependsOn = List.copyOf(dependsOn);
    }

    /** Whether the task is done or cancelled. */
    public boolean terminal() {
        return TERMINAL.contains(status);
    }

    /** The {@code task} projection of {@code ledger_task_posted}, {@code board_snapshot} and the journal. */
    public JsonObject projection() {
        JsonArrayBuilder deps = PROVIDER.createArrayBuilder();
        dependsOn.forEach(deps::add);
        return PROVIDER.createObjectBuilder()
                .add("task_id", taskId)
                .add("title", title)
                .add("description", description)
                .add("depends_on", deps)
                .add("status", status)
                .add("suggested_owner", suggestedOwner)
                .add("project", project)
                .add("version", version)
                .add("created_by", createdBy)
                .add("created_at", createdAt)
                .add("updated_at", updatedAt)
                .build();
    }

    /** Reads a projection (journal replay); null without a task id. Extra keys such as {@code causal_parent} are ignored. */
    public static LedgerTask fromProjection(JsonObject o) {
        String id = str(o, "task_id");
        if (id.isEmpty()) {
            return null;
        }
        List<String> deps = new ArrayList<>();
        if (o.get("depends_on") instanceof jakarta.json.JsonArray a) {
            for (JsonValue v : a) {
                if (v instanceof JsonString s) {
                    deps.add(s.getString());
                }
            }
        }
        String status = str(o, "status");
        return new LedgerTask(id, str(o, "title"), str(o, "description"), deps, status.isEmpty() ? "open" : status,
                str(o, "suggested_owner"), str(o, "project"), o.get("version") instanceof JsonNumber n ? n.longValue() : 1,
                str(o, "created_by"), num(o, "created_at"), num(o, "updated_at"));
    }

    private static String str(JsonObject o, String k) {
        return o.get(k) instanceof JsonString s ? s.getString() : "";
    }

    private static double num(JsonObject o, String k) {
        return o.get(k) instanceof JsonNumber n ? n.doubleValue() : 0.0;
    }
}
