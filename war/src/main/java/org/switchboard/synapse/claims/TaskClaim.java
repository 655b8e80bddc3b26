package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * One live lease (synapse-core §9.1). Immutable: every change produces a new instance.
 *
 * @param taskId         trimmed, non-empty task id
 * @param owner          bound name of the holder
 * @param note           trimmed free text
 * @param claimedAt      grant/renewal time (epoch seconds)
 * @param leaseExpiresAt {@code claimedAt + ttl}; the lease is live while {@code now < leaseExpiresAt}
 * @param status         claimed, working, input_required, done, failed
 * @param dataRef        artefact pointer
 * @param scope          worktree, normalised paths, optional path identity
 * @param epoch          hub-global lease generation
 * @param version        optimistic-concurrency counter (0 at grant)
 * @param checkpoint     opaque resume token
 * @param git            stored git object, or {@link JsonValue#NULL}
 * @param quotaPrincipal the principal charged for the claim (journal only, never on the wire)
 */
public record TaskClaim(String taskId, String owner, String note, double claimedAt, double leaseExpiresAt,
                        String status, String dataRef, ClaimScope scope, long epoch, long version,
                        String checkpoint, JsonValue git, String quotaPrincipal) {

    /** Whether the lease is still live at {@code now}. */
    public boolean liveAt(double now) {
        return now < leaseExpiresAt;
    }

    /** Seconds of lease left at {@code now} (0 when expired). */
    public double remainingAt(double now) {
        return Math.max(0.0, leaseExpiresAt - now);
    }

    TaskClaim withStatus(String newStatus, String newNote, String newDataRef) {
        return new TaskClaim(taskId, owner, newNote, claimedAt, leaseExpiresAt, newStatus, newDataRef, scope, epoch,
                version + 1, checkpoint, git, quotaPrincipal);
    }

    TaskClaim withCheckpoint(String newCheckpoint) {
        return new TaskClaim(taskId, owner, note, claimedAt, leaseExpiresAt, status, dataRef, scope, epoch,
                version + 1, newCheckpoint, git, quotaPrincipal);
    }

    /** Public projection (state_snapshot and friends): every §9.1 field except {@code quota_principal}. */
    public JsonObject projection() {
        return fields(false).build();
    }

    /** Journal snapshot: the projection plus {@code quota_principal} (core §16.2). */
    public JsonObject snapshot() {
        return fields(true).build();
    }

    /** Fields of {@code claim_granted} (§9.3): the projection without {@code claimed_at} and {@code data_ref}. */
    public JsonObject grantFields() {
        JsonObjectBuilder b = fields(false);
        b.remove("claimed_at");
        b.remove("data_ref");
        return b.build();
    }

    private JsonObjectBuilder fields(boolean withPrincipal) {
        JsonArrayBuilder p = PROVIDER.createArrayBuilder();
        scope.paths().forEach(p::add);
        JsonObjectBuilder b = PROVIDER.createObjectBuilder()
                .add("task_id", taskId)
                .add("owner", owner)
                .add("note", note)
                .add("claimed_at", claimedAt)
                .add("lease_expires_at", leaseExpiresAt)
                .add("status", status)
                .add("data_ref", dataRef)
                .add("worktree", scope.worktree())
                .add("paths", p)
                .add("epoch", epoch)
                .add("version", version)
                .add("checkpoint", checkpoint)
                .add("git", git == null ? JsonValue.NULL : git);
        if (scope.pathIdentity() != null) {
            b.add("path_identity", scope.pathIdentity().raw());
        }
        if (withPrincipal) {
            b.add("quota_principal", quotaPrincipal);
        }
        return b;
    }

    /**
     * Rebuilds a claim from a journal snapshot. Paths are taken as stored (already normalised);
     * a stored path identity is re-validated and dropped if it no longer validates. Returns null
     * when the snapshot lacks a task id or owner.
     */
    public static TaskClaim fromSnapshot(JsonObject s) {
        String taskId = str(s, "task_id", "");
        String owner = str(s, "owner", "");
        if (taskId.isEmpty() || owner.isEmpty()) {
            return null;
        }
        List<String> paths = new ArrayList<>();
        if (s.get("paths") instanceof jakarta.json.JsonArray arr) {
            for (JsonValue v : arr) {
                if (v instanceof JsonString js) {
                    paths.add(js.getString());
                }
            }
        }
        PathIdentity identity = PathIdentity.validate(s.get("path_identity"), paths).identity();
        JsonValue git = s.get("git");
        return new TaskClaim(taskId, owner, str(s, "note", ""), num(s, "claimed_at"), num(s, "lease_expires_at"),
                str(s, "status", ClaimStatus.CLAIMED), str(s, "data_ref", ""),
                new ClaimScope(str(s, "worktree", ""), paths, identity), (long) num(s, "epoch"), (long) num(s, "version"),
                str(s, "checkpoint", ""), git == null ? JsonValue.NULL : git, str(s, "quota_principal", ""));
    }

    private static String str(JsonObject o, String k, String dflt) {
        return o.get(k) instanceof JsonString s ? s.getString() : dflt;
    }

    private static double num(JsonObject o, String k) {
        return o.get(k) instanceof JsonNumber n ? n.doubleValue() : 0.0;
    }
}
