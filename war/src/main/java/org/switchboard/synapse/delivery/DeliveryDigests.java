package org.switchboard.synapse.delivery;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.switchboard.json.Jsons;
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
        return SynapseCanonicalJson.sha256Hex(Jsons.PROVIDER.createArrayBuilder()
                .add(originHub).add(sender).add(requestId).build());
    }

    /** {@code request_digest} over the eleven content fields, {@code deadline} as a float. */
    public static String requestDigest(DeliveryIntent intent, String originHub) {
        JsonArrayBuilder fallbacks = Jsons.PROVIDER.createArrayBuilder();
        intent.allowedFallbacks().forEach(fallbacks::add);
        JsonObject content = Jsons.PROVIDER.createObjectBuilder()
                .add("sender", intent.sender())
                .add("origin_hub", originHub)
                .add("request_id", intent.requestId())
                .add("idempotency_key", intent.idempotencyKey())
                .add("target", intent.target())
                .add("target_incarnation", intent.targetIncarnation())
                .add("mode", intent.mode())
                .add("allowed_fallbacks", fallbacks)
                .add("task_id", intent.taskId())
                .add("body", intent.body())
                .add("deadline", asFloat(intent.deadline()))
                .build();
        return SynapseCanonicalJson.sha256Hex(content);
    }

    /** {@code mutation_digest} = SHA-256 of CJ-ASCII {@code [operation_key, mutation_id, stage, evidence]}. */
    public static String mutationDigest(String operationKey, String mutationId, String stageToken, JsonObject evidence) {
        return SynapseCanonicalJson.sha256Hex(Jsons.PROVIDER.createArrayBuilder()
                .add(operationKey).add(mutationId).add(stageToken).add(evidence == null ? JsonValue.EMPTY_JSON_OBJECT : evidence)
                .build());
    }

    /** A JSON number that the canonical writer renders as a float even when the value is integral. */
    static JsonValue asFloat(double value) {
        BigDecimal decimal = BigDecimal.valueOf(value);
        if (decimal.scale() <= 0) {
            decimal = decimal.setScale(1);
        }
        return Jsons.PROVIDER.createValue(decimal);
    }
}
