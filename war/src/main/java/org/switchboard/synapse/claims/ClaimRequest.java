package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;

/**
 * A parsed {@code claim} frame (synapse-core §9.2), fields already normalised.
 *
 * @param rawTaskId    task id as sent (before trimming; hashed in denial evidence)
 * @param taskId       trimmed task id ({@code ""} ⇒ TASK_ID_REQUIRED)
 * @param note         trimmed note
 * @param ttlSeconds   clamped lease length
 * @param worktree     worktree label
 * @param paths        normalised scope paths
 * @param pathIdentity the raw {@code path_identity} value, or null when absent
 * @param git          normalised git object, or {@link JsonValue#NULL}
 */
public record ClaimRequest(String rawTaskId, String taskId, String note, double ttlSeconds, String worktree,
                           List<String> paths, JsonValue pathIdentity, JsonValue git) {

    /** Default lease length in seconds. */
    public static final double DEFAULT_TTL = 3600;
    /** Shortest lease. */
    public static final double MIN_TTL = 30;
    /** Longest lease (30 days). */
    public static final double MAX_TTL = 2_592_000;

    /** Parses with the default 512-path cap. */
    public static ClaimRequest from(JsonObject frame) {
        return from(frame, ScopePaths.DEFAULT_MAX_PATHS);
    }

    /** Parses a claim frame; {@code maxPaths} is the operator's declared-path cap. */
    public static ClaimRequest from(JsonObject frame, int maxPaths) {
        return from(frame, maxPaths, DEFAULT_TTL, MIN_TTL, MAX_TTL);
    }

    /** Parses a claim frame with operator lease bounds: absent or unusable TTL gives {@code defaultTtl}, others clamp. */
    public static ClaimRequest from(JsonObject frame, int maxPaths, double defaultTtl, double minTtl, double maxTtl) {
        String raw = FrameFields.raw(frame, "task_id", "payload");
        JsonValue ttl = frame.get("ttl_seconds");
        double ttlSeconds = defaultTtl;
        if (ttl instanceof JsonNumber n) {
            double d = n.doubleValue();
            if (Double.isFinite(d)) {
                ttlSeconds = Math.min(maxTtl, Math.max(minTtl, d));
            }
        }
        JsonValue pi = frame.get("path_identity");
        return new ClaimRequest(raw, raw.strip(), FrameFields.trimmed(frame, "note"), ttlSeconds,
                FrameFields.trimmed(frame, "worktree"), ScopePaths.normalise(frame.get("paths"), maxPaths),
                pi == null || pi.getValueType() == JsonValue.ValueType.NULL ? null : pi, git(frame.get("git")));
    }

    /** Stores a git object with {@code base} defaulting to {@code main} and {@code auto_release_on} to {@code merge}. */
    static JsonValue git(JsonValue v) {
        if (v == null || v.getValueType() != JsonValue.ValueType.OBJECT) {
            return JsonValue.NULL;
        }
        JsonObject o = v.asJsonObject();
        JsonObjectBuilder b = PROVIDER.createObjectBuilder();
        b.add("branch", o.get("branch") == null ? PROVIDER.createValue("") : o.get("branch"));
        b.add("base", o.get("base") == null || o.get("base") == JsonValue.NULL ? PROVIDER.createValue("main") : o.get("base"));
        b.add("auto_release_on", o.get("auto_release_on") == null || o.get("auto_release_on") == JsonValue.NULL
                ? PROVIDER.createValue("merge") : o.get("auto_release_on"));
        for (Map.Entry<String, JsonValue> e : o.entrySet()) {
            if (!e.getKey().equals("branch") && !e.getKey().equals("base") && !e.getKey().equals("auto_release_on")) {
                b.add(e.getKey(), e.getValue());
            }
        }
        return b.build();
    }
}
