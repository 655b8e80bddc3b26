package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.function.LongFunction;
import java.util.regex.Pattern;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.OperationRecord;

/**
 * The read-only {@code release_confirmation} query (synapse-advanced §10.3): confirms a keyed
 * release of the asking sender only when every durable witness agrees, else answers
 * {@code unknown}. Never writes anything. Stateless.
 */
public final class ReleaseConfirmation {

    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");

    private ReleaseConfirmation() {
    }

    /**
     * Evaluates the {@code release_confirmation} value of a {@code state_request}.
     *
     * @param query   the request's {@code release_confirmation} value (any JSON, may be null)
     * @param sender  the authenticated sender (lookups stay in its release namespace)
     * @param ledger  the idempotency ledger holding operation records
     * @param eventAt journal lookup by seq (e.g. {@code journal::at}); null ⇒ nothing is durable
     * @return the {@code release_confirmation} object to place on the private {@code state_snapshot}
     */
    public static JsonObject evaluate(JsonValue query, String sender, IdempotencyLedger ledger,
                                      LongFunction<JournalEvent> eventAt) {
        if (query == null || query.getValueType() != JsonValue.ValueType.OBJECT) {
            return unknown(null);
        }
        JsonObject q = query.asJsonObject();
        String taskId = q.get("task_id") instanceof JsonString s ? s.getString() : null;
        String operationId = q.get("operation_id") instanceof JsonString s ? s.getString() : null;
        String digest = q.get("request_digest") instanceof JsonString s ? s.getString() : null;
        if (taskId == null || taskId.isEmpty() || operationId == null || operationId.isEmpty()
                || operationId.length() > 128 || operationId.indexOf('\u0000') >= 0
                || digest == null || !DIGEST.matcher(digest).matches() || eventAt == null) {
            return unknown(q);
        }
        OperationRecord record = ledger.find(IdempotencyLedger.operationKey(sender, "release", operationId));
        if (record == null || !digest.equals(record.requestDigest()) || record.firstEventSeq() <= 0
                || record.commitSeq() <= 0) {
            return unknown(q);
        }
        JsonObject response = record.response();
        JsonValue receipt = response.get("receipt");
        if (!"release_granted".equals(str(response, "type")) || !sender.equals(str(response, "owner"))
                || !taskId.equals(str(response, "task_id")) || !operationId.equals(str(response, "release_operation_id"))
                || receipt == null || receipt.getValueType() != JsonValue.ValueType.OBJECT
                || !isTrue(receipt.asJsonObject().get("released"))
                || !sender.equals(str(receipt.asJsonObject(), "owner"))
                || !taskId.equals(str(receipt.asJsonObject(), "task_id"))) {
            return unknown(q);
        }
        JournalEvent release = eventAt.apply(record.firstEventSeq());
        JournalEvent commit = eventAt.apply(record.commitSeq());
        if (release == null || !"release".equals(release.kind()) || !taskId.equals(str(release.payload(), "task_id"))
                || commit == null || !OperationRecord.EVENT_KIND.equals(commit.kind())
                || !record.operationKey().equals(keyOf(commit.payload()))) {
            return unknown(q);
        }
        return PROVIDER.createObjectBuilder()
                .add("status", "confirmed")
                .add("task_id", taskId)
                .add("owner", sender)
                .add("operation_id", operationId)
                .add("request_digest", digest)
                .add("receipt", receipt)
                .add("first_event_seq", record.firstEventSeq())
                .add("commit_seq", record.commitSeq())
                .build();
    }

    private static boolean isTrue(JsonValue v) {
        return v != null && v.getValueType() == JsonValue.ValueType.TRUE;
    }

    private static String keyOf(JsonObject payload) {
        String k = str(payload, "operation_key");
        return k != null ? k : str(payload, "key");
    }

    private static JsonObject unknown(JsonObject q) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder().add("status", "unknown");
        if (q != null) {
            for (String k : new String[] {"task_id", "operation_id", "request_digest"}) {
                if (q.get(k) != null) {
                    b.add(k, q.get(k));
                }
            }
        }
        return b.build();
    }

    private static String str(JsonObject o, String k) {
        return o.get(k) instanceof JsonString s ? s.getString() : null;
    }
}
