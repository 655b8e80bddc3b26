package org.switchboard.synapse.delivery;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.switchboard.json.Jsons;

/**
 * The recipient's stage reports of §2.12 ({@code delivery_boundary}, {@code delivery_ack},
 * {@code delivery_outcome}) and the sender's {@code delivery_cancel} (§2.14): field checks, the
 * stage each one asks for, and the evidence rules.
 */
public final class StageReport {

    /** Keys allowed in {@code evidence}. */
    public static final Set<String> EVIDENCE_KEYS = Set.of("request_id", "task_id", "boundary", "receipt_id",
            "outcome_code", "executor_ref", "reason_code");
    /** Stages a {@code delivery_outcome} may report. */
    public static final Set<String> OUTCOME_STAGES = Set.of("completed", "failed", "rejected", "cancelled", "superseded");
    static final int MUTATION_ID_BYTES = 128;
    static final int EVIDENCE_VALUE_BYTES = 128;
    static final int EVIDENCE_BYTES = 4096;
    private static final Map<String, Stage> FIXED = Map.of("delivery_boundary", Stage.BOUNDARY_DELIVERED,
            "delivery_ack", Stage.ACKNOWLEDGED);

    /** A checked report: the stage asked for, the mutation id and the evidence with correlation filled in. */
    public record Checked(Stage stage, String mutationId, JsonObject evidence) {
    }

    /** Either a checked report or a refusal. */
    public record Outcome(Checked report, Refusal refusal) {
    }

    private StageReport() {
    }

    /** True for a valid {@code mutation_id}: a printable string of 1..128 bytes. */
    public static boolean validMutationId(JsonValue value) {
        return BoundedText.valid(value, MUTATION_ID_BYTES, false);
    }

    /**
     * Step 4 of §2.12 for a report of {@code type} against the stored request's {@code requestId} and
     * {@code taskId}: correlation, stage mapping, mutation id and evidence.
     */
    public static Outcome check(String type, JsonObject frame, String requestId, String taskId) {
        if (!(frame.get("request_id") instanceof JsonString rid) || !rid.getString().equals(requestId)
                || !(frame.get("task_id") instanceof JsonString tid) || !tid.getString().equals(taskId)) {
            return refuse("request_id and task_id must match the request");
        }
        Stage stage = FIXED.get(type);
        if (stage == null) {
            JsonValue s = frame.get("stage");
            if (!(s instanceof JsonString named) || !OUTCOME_STAGES.contains(named.getString())) {
                return refuse("stage must be completed, failed, rejected, cancelled or superseded");
            }
            stage = Stage.of(named.getString());
        }
        if (!validMutationId(frame.get("mutation_id"))) {
            return refuse("mutation_id must be a printable string of at most 128 bytes");
        }
        JsonValue evidenceValue = frame.get("evidence");
        JsonObject evidence = evidenceValue == null ? JsonValue.EMPTY_JSON_OBJECT : null;
        if (evidence == null) {
            if (!(evidenceValue instanceof JsonObject object)) {
                return refuse("evidence must be an object");
            }
            evidence = object;
        }
        if (evidence.toString().getBytes(StandardCharsets.UTF_8).length > EVIDENCE_BYTES) {
            return refuse("evidence larger than 4096 bytes");
        }
        for (Map.Entry<String, JsonValue> entry : evidence.entrySet()) {
            if (!EVIDENCE_KEYS.contains(entry.getKey()) || !BoundedText.valid(entry.getValue(), EVIDENCE_VALUE_BYTES, false)) {
                return refuse("evidence holds an unknown key or a value that is not a printable string of at most 128 bytes");
            }
        }
        if (evidence.containsKey("request_id") && !evidence.getString("request_id").equals(requestId)
                || evidence.containsKey("task_id") && !evidence.getString("task_id").equals(taskId)) {
            return refuse("evidence correlation does not match the request");
        }
        if (stage == Stage.BOUNDARY_DELIVERED && !evidence.containsKey("boundary")) {
            return refuse("delivery_boundary needs evidence.boundary");
        }
        if (stage == Stage.ACKNOWLEDGED && !evidence.containsKey("receipt_id")) {
            return refuse("delivery_ack needs evidence.receipt_id");
        }
        if ((stage == Stage.COMPLETED || stage == Stage.FAILED)
                && (!evidence.containsKey("executor_ref") || !evidence.containsKey("outcome_code"))) {
            return refuse("completed and failed need evidence.executor_ref and evidence.outcome_code");
        }
        JsonObjectBuilder filled = Jsons.PROVIDER.createObjectBuilder(evidence);
        filled.add("request_id", requestId).add("task_id", taskId);
        return new Outcome(new Checked(stage, ((JsonString) frame.get("mutation_id")).getString(), filled.build()), null);
    }

    private static Outcome refuse(String explanation) {
        return new Outcome(null, Refusal.of(ReasonCodes.INVALID_SHAPE, explanation));
    }
}
