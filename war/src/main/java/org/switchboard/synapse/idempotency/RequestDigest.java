package org.switchboard.synapse.idempotency;

import org.switchboard.synapse.wire.SynapseCanonicalJson;
import org.switchboard.synapse.wire.NonCanonicalException;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Map;
import java.util.Set;

/**
 * The canonical request digest of a keyed mutation (synapse-core §15.4, synapse-advanced §10.2):
 * SHA-256 of the CJ-ASCII form of the request as routed, without the volatile envelope keys.
 */
public final class RequestDigest {

    /** Error sentence for a keyed request that is not strict canonical JSON. */
    public static final String NON_CANONICAL_SENTENCE = "Request cannot be represented as strict canonical JSON.";
    /** {@code error_code} for {@link #NON_CANONICAL_SENTENCE}. */
    public static final String NON_CANONICAL_CODE = "invalid_idempotency_request";

    /** Keys never part of the digest: they change between retries of the same request. */
    public static final Set<String> EXCLUDED_KEYS = Set.of("timestamp", "client_timestamp", "auth", "signature", "token");

    private RequestDigest() {
    }

    /**
     * Rewrites a received frame into the routed form the digest covers: {@code sender} replaced by
     * the bound name, {@code type} replaced by its normalised verb, {@code token} removed.
     */
    public static JsonObject routed(JsonObject frame, String boundSender, String normalisedType) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder();
        for (Map.Entry<String, jakarta.json.JsonValue> e : frame.entrySet()) {
            if (!e.getKey().equals("token")) {
                b.add(e.getKey(), e.getValue());
            }
        }
        b.add("sender", boundSender);
        b.add("type", normalisedType);
        return b.build();
    }

    /** Lowercase hex digest of a routed request; throws {@link NonCanonicalException}. */
    public static String of(JsonObject routedRequest) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder();
        for (Map.Entry<String, jakarta.json.JsonValue> e : routedRequest.entrySet()) {
            if (!EXCLUDED_KEYS.contains(e.getKey())) {
                b.add(e.getKey(), e.getValue());
            }
        }
        return SynapseCanonicalJson.sha256Hex(SynapseCanonicalJson.ascii(b.build()));
    }

    /** Convenience: {@code of(routed(frame, boundSender, normalisedType))}. */
    public static String of(JsonObject frame, String boundSender, String normalisedType) {
        return of(routed(frame, boundSender, normalisedType));
    }
}
