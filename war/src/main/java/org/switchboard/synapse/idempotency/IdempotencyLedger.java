package org.switchboard.synapse.idempotency;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotReader;
import org.switchboard.journal.snapshot.SnapshotWriter;

/**
 * Rules of {@code idem_key} (synapse-core §15): the operation-key namespace, replay of a stored
 * response for the same digest, {@code idempotency_conflict} for a different one, an LRU of
 * recent records in front of an optional durable {@link OperationStore}.
 *
 * <p>Threading: all methods are thread-safe. {@link #begin} serialises requests that share one
 * operation key (a second caller waits until the first calls {@link #finish}), so two concurrent
 * retries can never both mutate; requests with different keys never wait for each other.
 */
public final class IdempotencyLedger {

    /** Default size of the in-memory cache. */
    public static final int DEFAULT_CACHE_SIZE = 1024;
    /** Sentence of the conflict error. */
    public static final String CONFLICT_SENTENCE = "Idempotency key was already used for a different request.";
    /** {@code error_code} of the conflict error. */
    public static final String CONFLICT_CODE = "idempotency_conflict";
    /** Sender of hub-originated frames. */
    public static final String HUB_SENDER = "SynapseHub";

    /** Verbs whose {@code idem_key} is honoured (normalised names). */
    public static final Set<String> COVERED_VERBS = Set.of("claim", "release", "task_update", "handoff", "checkpoint",
            "resource", "ledger_task", "ledger_task_update", "ledger_progress", "guard_denial", "recall_log", "finding");

    /** Outcome of {@link #begin}. */
    public sealed interface Lookup permits Fresh, Replay, Conflict {
    }

    /** No record: evaluate the request; the caller MUST call {@link #finish} afterwards. */
    public record Fresh(String operationKey) implements Lookup {
    }

    /** Same key, same digest: resend {@code response} verbatim, privately. */
    public record Replay(JsonObject response) implements Lookup {
    }

    /** Same key, different digest: send {@code error} privately. */
    public record Conflict(JsonObject error) implements Lookup {
    }

    private final OperationStore store;
    private final int cacheSize;
    private final Map<String, OperationRecord> recent;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

    /**
     * @param store     durable records (journal hubs), or null for a process-local ledger
     * @param cacheSize LRU capacity (1024 by default)
     */
    public IdempotencyLedger(OperationStore store, int cacheSize) {
        this.store = store;
        this.cacheSize = Math.max(1, cacheSize);
        this.recent = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, OperationRecord> eldest) {
                return size() > IdempotencyLedger.this.cacheSize;
            }
        };
    }

    /** A process-local ledger with the default cache size. */
    public IdempotencyLedger() {
        this(null, DEFAULT_CACHE_SIZE);
    }

    /** Maps verb aliases to the verb name used in operation keys. */
    public static String normaliseType(String type) {
        if (type == null) {
            return "";
        }
        return switch (type) {
            case "resource_offer", "offer_resource" -> "resource";
            default -> type;
        };
    }

    /** Whether {@code idem_key} on this verb is honoured. */
    public static boolean covers(String type) {
        return COVERED_VERBS.contains(normaliseType(type));
    }

    /** {@code <bound sender> NUL <normalised type> NUL <idem_key>}. */
    public static String operationKey(String boundSender, String type, String idemKey) {
        return boundSender + '\u0000' + normaliseType(type) + '\u0000' + idemKey;
    }

    /**
     * The keyed-request's {@code idem_key}, or "" when not keyed (absent, null, non-string, empty).
     */
    public static String idemKey(JsonObject frame) {
        JsonValue v = frame.get("idem_key");
        return v != null && v.getValueType() == JsonValue.ValueType.STRING ? ((jakarta.json.JsonString) v).getString() : "";
    }

    /**
     * Looks the key up; on {@link Fresh} the key is reserved until {@link #finish} (other callers
     * with the same key block until then).
     */
    public Lookup begin(String operationKey, String requestDigest) {
        while (true) {
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> other = inFlight.putIfAbsent(operationKey, mine);
            if (other != null) {
                other.join();
                continue;
            }
            OperationRecord record = find(operationKey);
            if (record == null) {
                return new Fresh(operationKey);
            }
            inFlight.remove(operationKey, mine);
            mine.complete(null);
            return judge(record, operationKey, requestDigest);
        }
    }

    /**
     * Ends a {@link Fresh} evaluation: {@code committed} is the record of a successful mutation
     * (already durable), or null when the request was refused or failed (nothing is remembered).
     */
    public void finish(String operationKey, OperationRecord committed) {
        if (committed != null) {
            remember(committed);
        }
        CompletableFuture<Void> f = inFlight.remove(operationKey);
        if (f != null) {
            f.complete(null);
        }
    }

    /** Replay of an {@code idempotency} journal event (other kinds are ignored). */
    public void apply(JournalEvent event) {
        if (!OperationRecord.EVENT_KIND.equals(event.kind())) {
            return;
        }
        OperationRecord record = OperationRecord.fromPayload(event.payload(), event.seq());
        if (record != null) {
            remember(record);
        }
    }

    /** The stored record for a key (cache, then durable store), or null. Read-only. */
    public OperationRecord find(String operationKey) {
        synchronized (recent) {
            OperationRecord hit = recent.get(operationKey);
            if (hit != null) {
                return hit;
            }
        }
        if (store == null) {
            return null;
        }
        OperationRecord durable = store.find(operationKey);
        if (durable != null) {
            synchronized (recent) {
                recent.put(operationKey, durable);
            }
        }
        return durable;
    }

    private void remember(OperationRecord record) {
        if (store != null) {
            store.put(record);
        }
        synchronized (recent) {
            recent.put(record.operationKey(), record);
        }
    }

    private static Lookup judge(OperationRecord record, String operationKey, String digest) {
        // Legacy rows carry no digest: they replay whatever the content (nothing to compare with).
        if (record.requestDigest().isEmpty() || record.requestDigest().equals(digest)) {
            return new Replay(record.response());
        }
        return new Conflict(conflictError(record.response(), senderOf(operationKey)));
    }

    /** The conflict error: only {@code timestamp} and {@code hub_id} are copied from the stored response. */
    public static JsonObject conflictError(JsonObject storedResponse, String target) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder()
                .add("sender", HUB_SENDER)
                .add("target", target)
                .add("type", "error")
                .add("payload", CONFLICT_SENTENCE)
                .add("error_code", CONFLICT_CODE);
        JsonValue ts = storedResponse.get("timestamp");
        if (ts != null) {
            b.add("timestamp", ts);
        }
        JsonValue hub = storedResponse.get("hub_id");
        if (hub != null) {
            b.add("hub_id", hub);
        }
        return b.build();
    }

    private static String senderOf(String operationKey) {
        int nul = operationKey.indexOf('\u0000');
        return nul < 0 ? operationKey : operationKey.substring(0, nul);
    }

    /**
     * The replayed state as a snapshot part (issue 20): the durable records (when the store is the
     * in-memory one the hub uses) and the recent cache in its LRU order, one row each
     * ({@code [operation key, request digest, response, first event seq, commit seq]}), read back as a
     * stream. A ledger over another store writes only the cache: that store keeps its records itself.
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("idempotency", () -> SnapshotWriter.write(out -> {
            out.writeStartObject().writeKey("store").writeStartArray();
            if (store instanceof InMemoryOperationStore memory) {
                memory.all().stream().sorted(java.util.Comparator.comparing(OperationRecord::operationKey))
                        .forEach(r -> row(out, r));
            }
            out.writeEnd().writeKey("recent").writeStartArray();
            synchronized (recent) {
                recent.values().forEach(r -> row(out, r));
            }
            out.writeEnd().writeEnd();
        }), text -> SnapshotReader.read("idempotency", text, in -> {
            in.startObject();
            in.key("store");
            in.startArray();
            while (in.more()) {
                OperationRecord r = row(in);
                if (store != null) {
                    store.put(r);
                }
            }
            in.key("recent");
            in.startArray();
            synchronized (recent) {
                while (in.more()) {
                    OperationRecord r = row(in);
                    recent.put(r.operationKey(), r);
                }
            }
            if (in.more()) {
                throw new IllegalArgumentException("unknown field after recent");
            }
            return null;
        }));
    }

    private static void row(jakarta.json.stream.JsonGenerator out, OperationRecord r) {
        out.writeStartArray().write(r.operationKey()).write(r.requestDigest()).write(r.response())
                .write(r.firstEventSeq()).write(r.commitSeq()).writeEnd();
    }

    private static OperationRecord row(SnapshotReader in) {
        in.startArray();
        String key = in.string();
        String digest = in.string();
        JsonObject response = in.object();
        OperationRecord r = new OperationRecord(key, digest, response, in.longValue(), in.longValue());
        if (key == null || key.isEmpty() || digest == null || in.more()) {
            throw new IllegalArgumentException("a record row without key or digest, or with extra fields");
        }
        return r;
    }
}
