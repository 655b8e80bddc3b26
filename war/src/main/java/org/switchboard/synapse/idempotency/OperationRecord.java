package org.switchboard.synapse.idempotency;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * What a successful keyed mutation leaves behind (synapse-core §15.3): its operation key, request
 * digest and the exact response frame, plus the seqs that witness it (0 when unknown).
 *
 * @param operationKey  sender NUL verb NUL idem_key
 * @param requestDigest 64 lowercase hex, or "" for legacy rows that stored none
 * @param response      the response frame exactly as first sent
 * @param firstEventSeq seq of the first mutation event of the commit
 * @param commitSeq     seq of the journal row that holds this record
 */
public record OperationRecord(String operationKey, String requestDigest, JsonObject response,
                              long firstEventSeq, long commitSeq) {

    /** Journal event kind carrying operation records (core §16.2 {@code idempotency}). */
    public static final String EVENT_KIND = "idempotency";

    /** Journal payload for this record (the commit seq is the row's own seq, so it is not stored). */
    public JsonObject toPayload() {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder()
                .add("operation_key", operationKey)
                .add("key", operationKey)
                .add("request_digest", requestDigest)
                .add("response", response);
        if (firstEventSeq > 0) {
            b.add("first_event_seq", firstEventSeq);
        }
        return b.build();
    }

    /**
     * Journal payload for a record appended in the same batch right after its {@code eventCount}
     * mutation events: seqs of one append are consecutive, so the first event's seq is
     * {@code commitSeq - eventCount} and need not be known before the append.
     */
    public static JsonObject payloadAfterEvents(String operationKey, String requestDigest, JsonObject response,
                                                int eventCount) {
        return PROVIDER.createObjectBuilder()
                .add("operation_key", operationKey)
                .add("key", operationKey)
                .add("request_digest", requestDigest)
                .add("response", response)
                .add("event_count", eventCount)
                .build();
    }

    /**
     * Reads a journal payload, accepting legacy rows {@code {key, response}}; null when the payload
     * has no usable key or response.
     */
    public static OperationRecord fromPayload(JsonObject payload, long seq) {
        String key = string(payload, "operation_key");
        if (key == null) {
            key = string(payload, "key");
        }
        JsonValue response = payload.get("response");
        if (key == null || key.isEmpty() || response == null || response.getValueType() != JsonValue.ValueType.OBJECT) {
            return null;
        }
        String digest = string(payload, "request_digest");
        long first = payload.get("first_event_seq") instanceof JsonNumber n ? n.longValue() : 0L;
        if (first == 0 && payload.get("event_count") instanceof JsonNumber c && c.longValue() > 0 && seq > c.longValue()) {
            first = seq - c.longValue();
        }
        return new OperationRecord(key, digest == null ? "" : digest, response.asJsonObject(), first, seq);
    }

    private static String string(JsonObject o, String key) {
        JsonValue v = o.get(key);
        return v != null && v.getValueType() == JsonValue.ValueType.STRING ? o.getString(key) : null;
    }
}
