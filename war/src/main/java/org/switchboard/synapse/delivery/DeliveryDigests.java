package org.switchboard.synapse.delivery;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/** The derived identities of synapse-advanced §2.2, §2.5 and §2.12, all SHA-256 over CJ-ASCII. */
public final class DeliveryDigests {

    private DeliveryDigests() {
    }

    /** {@code incarnation}: lowercase hex SHA-256 of the token's ASCII bytes. */
    public static String incarnation(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    /** {@code operation_key} = SHA-256 of CJ-ASCII {@code [origin_hub, sender, request_id]}. */
    public static String operationKey(String originHub, String sender, String requestId) {
        StringBuilder out = new StringBuilder(96).append('[');
        SynapseCanonicalJson.appendAsciiString(out, originHub).append(',');
        SynapseCanonicalJson.appendAsciiString(out, sender).append(',');
        SynapseCanonicalJson.appendAsciiString(out, requestId).append(']');
        return SynapseCanonicalJson.sha256Hex(out.toString());
    }

    /**
     * {@code request_digest} over the eleven content fields, {@code deadline} as a float. The canonical
     * text is written directly, keys already in code-point order, instead of building a JSON object and
     * sorting its keys: this runs once per admission (the fixed vectors of DeliveryDigestsTest pin it).
     */
    public static String requestDigest(DeliveryIntent intent, String originHub) {
        StringBuilder out = new StringBuilder(256 + intent.body().length());
        out.append("{\"allowed_fallbacks\":[");
        boolean first = true;
        for (String fallback : intent.allowedFallbacks()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            SynapseCanonicalJson.appendAsciiString(out, fallback);
        }
        out.append("],\"body\":");
        SynapseCanonicalJson.appendAsciiString(out, intent.body());
        // a float even when integral; -0.0 as the JSON-number path rendered it (0.0)
        out.append(",\"deadline\":").append(SynapseCanonicalJson.pythonRepr(intent.deadline() == 0.0 ? 0.0 : intent.deadline()));
        field(out, "idempotency_key", intent.idempotencyKey());
        field(out, "mode", intent.mode());
        field(out, "origin_hub", originHub);
        field(out, "request_id", intent.requestId());
        field(out, "sender", intent.sender());
        field(out, "target", intent.target());
        field(out, "target_incarnation", intent.targetIncarnation());
        field(out, "task_id", intent.taskId());
        return SynapseCanonicalJson.sha256Hex(out.append('}').toString());
    }

    private static void field(StringBuilder out, String key, String value) {
        out.append(",\"").append(key).append("\":");
        SynapseCanonicalJson.appendAsciiString(out, value);
    }

    /** {@code mutation_digest} = SHA-256 of CJ-ASCII {@code [operation_key, mutation_id, stage, evidence]}. */
    public static String mutationDigest(String operationKey, String mutationId, String stageToken, JsonObject evidence) {
        StringBuilder out = new StringBuilder(192).append('[');
        SynapseCanonicalJson.appendAsciiString(out, operationKey).append(',');
        SynapseCanonicalJson.appendAsciiString(out, mutationId).append(',');
        SynapseCanonicalJson.appendAsciiString(out, stageToken).append(',');
        SynapseCanonicalJson.appendAscii(out, evidence == null ? JsonValue.EMPTY_JSON_OBJECT : evidence).append(']');
        return SynapseCanonicalJson.sha256Hex(out.toString());
    }
}
