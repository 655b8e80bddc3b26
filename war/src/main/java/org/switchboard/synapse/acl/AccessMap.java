package org.switchboard.synapse.acl;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.switchboard.synapse.claims.ScopePaths;

/**
 * Which accesses a frame needs under ACL enforcement (synapse-advanced §6.6): the permission and the
 * {@code kind:value} targets of every gated type. {@link #required} answers {@code null} for a type
 * it does not map; the gate denies such a type when it is mutating.
 */
public final class AccessMap {

    /**
     * Mutating types that need no access at the gate: delivery follow-ups (stage reports, cancel) act
     * only on a request the delivery service already ties to its sender or recipient, and the verbs
     * whose grants are always enforced inside their own handlers (§6.6 last paragraph).
     */
    static final Set<String> EXEMPT = Set.of("delivery_boundary", "delivery_ack", "delivery_outcome", "delivery_cancel",
            "identity_enroll", "identity_revoke", "entitlement_advert");

    /** Attachment verbs (§3) check their {@code attachment-*} grants in their handler. */
    static final String ATTACHMENT_PREFIX = "attachment_";

    private static final Set<String> CLAIM_FAMILY = Set.of("claim", "task_update", "handoff", "checkpoint");
    private static final Set<String> BOARD_WRITES = Set.of("ledger_task", "ledger_task_update", "ledger_progress");
    private static final Set<String> CHANNEL_ADMIN = Set.of("channel_create", "channel_invite", "channel_join", "channel_leave");

    private AccessMap() {
    }

    /**
     * The accesses {@code sender} needs for a frame of {@code type} addressed to {@code target}: an
     * empty list when the type needs none, {@code null} when the type has no mapping.
     */
    public static List<Access> required(String type, JsonObject frame, String sender, String target) {
        if (EXEMPT.contains(type) || type.startsWith(ATTACHMENT_PREFIX)) {
            return List.of();
        }
        if ("chat".equals(type)) {
            return chat(frame, target);
        }
        if (CLAIM_FAMILY.contains(type)) {
            List<Access> accesses = new ArrayList<>();
            accesses.add(new Access(Permissions.CLAIM, "claim", taskId(frame, type)));
            for (String path : paths(frame)) {
                accesses.add(new Access(Permissions.CLAIM, "path", path));
            }
            return accesses;
        }
        if ("release".equals(type)) {
            return List.of(new Access(Permissions.RELEASE, "claim", taskId(frame, type)));
        }
        if ("advertise".equals(type)) {
            return List.of(new Access(Permissions.BOARD, "capability", sender));
        }
        if (BOARD_WRITES.contains(type)) {
            return List.of(new Access(Permissions.BOARD, "board", text(frame, "task_id").strip()));
        }
        if ("resource".equals(type)) {
            String kind = first(frame, "kind", "resource_kind");
            String name = first(frame, "name", "resource_name");
            return List.of(new Access(Permissions.BOARD, "resource", kind + "/" + name));
        }
        if (CHANNEL_ADMIN.contains(type)) {
            return List.of(new Access(Permissions.MESSAGE, "channel", text(frame, "channel").strip()));
        }
        if ("history_request".equals(type) || "resume_request".equals(type)) {
            return List.of(new Access(Permissions.RECALL, "history", "global"));
        }
        if ("guard_denial".equals(type)) {
            return List.of(new Access(Permissions.EVIDENCE, "evidence", "guard-denial"));
        }
        if ("identity_pin_reclaim".equals(type)) {
            return List.of(new Access(Permissions.IDENTITY_PIN_RECLAIM, "agent", text(frame, "pin_name").strip()));
        }
        if ("delivery_request".equals(type)) {
            // a delivery request is a message to its recipient; task control needs more (§2.7, in the handler)
            return List.of(new Access(Permissions.MESSAGE, "agent", target));
        }
        return null;
    }

    /** A chat needs {@code message} on its channel, on {@code channel:all} when broadcast, else on each addressee. */
    private static List<Access> chat(JsonObject frame, String target) {
        String channel = text(frame, "channel").strip();
        if (!channel.isEmpty()) {
            return List.of(new Access(Permissions.MESSAGE, "channel", channel));
        }
        if (target.isEmpty() || "all".equals(target)) {
            return List.of(new Access(Permissions.MESSAGE, "channel", "all"));
        }
        List<Access> accesses = new ArrayList<>();
        for (String part : target.split(",")) {
            String addressee = part.strip();
            if (!addressee.isEmpty()) {
                accesses.add(new Access(Permissions.MESSAGE, "agent", addressee));
            }
        }
        if (accesses.isEmpty()) {
            accesses.add(new Access(Permissions.MESSAGE, "agent", target));
        }
        return accesses;
    }

    /** The task id as the claim verbs read it ({@code task_id}, else {@code payload}, or {@code id} for task_update). */
    static String taskId(JsonObject frame, String type) {
        String fallback = "task_update".equals(type) ? "id" : "checkpoint".equals(type) ? null : "payload";
        String id = text(frame, "task_id");
        JsonValue raw = frame.get("task_id");
        if ((raw == null || raw.getValueType() == JsonValue.ValueType.NULL) && fallback != null) {
            id = text(frame, fallback);
        }
        return id.strip();
    }

    /** The claim's normalised paths (§8); the whole tree is the empty path, unusable lists none (the handler refuses them). */
    private static List<String> paths(JsonObject frame) {
        JsonValue paths = frame.get("paths");
        if (paths == null || paths.getValueType() == JsonValue.ValueType.NULL) {
            return List.of();
        }
        try {
            List<String> normalised = ScopePaths.normalise(paths, ScopePaths.DEFAULT_MAX_PATHS);
            return normalised == null ? List.of() : normalised;
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static String first(JsonObject frame, String key, String alias) {
        String v = text(frame, key);
        return v.isEmpty() ? text(frame, alias).strip() : v.strip();
    }

    static String text(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : "";
    }
}
