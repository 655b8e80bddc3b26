package org.switchboard.synapse.acl;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The private {@code error} frame of an ACL refusal (§6.6): the decision as {@code acl_decision}
 * ({@code allowed}, {@code reason}, {@code permission}, {@code target}); a refused {@code release}
 * also echoes {@code task_id} and, when keyed, {@code release_operation_id} (§10.2).
 */
public final class AclRefusal {

    /** Payload text of every ACL refusal. */
    public static final String TEXT = "ACL denied";

    private AclRefusal() {
    }

    /** The refusal sent to {@code name} for a frame of {@code type}. */
    public static String frame(HubFrames frames, String name, String type, JsonObject frame, AclDecision decision) {
        JsonObjectBuilder error = frames.error(name, TEXT + ": " + decision.permission() + " on " + decision.target())
                .add("acl_decision", Jsons.PROVIDER.createObjectBuilder()
                        .add("allowed", false)
                        .add("reason", decision.reason())
                        .add("permission", decision.permission())
                        .add("target", decision.target()))
                .add("refused_type", type);
        if ("release".equals(type)) {
            error.add("task_id", AccessMap.taskId(frame, type));
            String key = AccessMap.text(frame, "idem_key");
            if (!key.isEmpty()) {
                error.add("release_operation_id", key);
            }
        }
        return error.build().toString();
    }
}
