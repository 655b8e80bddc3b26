package org.switchboard.synapse.spend;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * The owner-only serialized spend ledger of synapse-advanced §7.4 ({@code hub.spend-ledger}): pools the
 * operator declares (id, current quota window, capacity as an exact decimal), the reservations and
 * settlements peer hubs made. Every decision is taken under one lock and written to the file (0600
 * temporary file, fsync, atomic rename) before it is answered. Refusals are returned as
 * {@link Answer#notAdmitted}; the caller turns them into the uniform not-admitted shape.
 */
public final class SpendLedger {

    /** The configuration key named in every start-up refusal. */
    public static final String KEY = "hub.spend-ledger";

    private static final Set<String> ROOT_KEYS = Set.of("version", "pools", "reservations", "settlements");
    private static final Set<String> POOL_KEYS = Set.of("pool_id", "window", "capacity");

    /** One decision: the result object, and whether it is a refusal (answered uniformly). */
    public record Answer(JsonObject result, boolean notAdmitted) {
        static Answer ok(JsonObject result) {
            return new Answer(result, false);
        }

        static final Answer REFUSED = new Answer(JsonValue.EMPTY_JSON_OBJECT, true);
    }

    private record Pool(String id, String window, BigDecimal capacity) {
    }

    private record Reservation(String scopeKey, String caller, String poolId, String window, String digest,
                               String reservationId, BigDecimal amount, JsonObject answer) {
    }

    private record Settlement(String reservationId, String usageRef, String digest, BigDecimal amount, boolean fin,
                              JsonObject answer) {
    }

    private final Path file;
    private final Map<String, Pool> pools = new LinkedHashMap<>();
    private final Map<String, Reservation> reservations = new LinkedHashMap<>();
    private final Map<String, Settlement> settlements = new LinkedHashMap<>();

    private SpendLedger(Path file) {
        this.file = file;
    }

    /** Loads the ledger (strict, owner-only); a fault is a {@link PolicyFileException} naming {@link #KEY}. */
    public static SpendLedger load(Path file) {
        JsonObject root = PolicyFiles.readObject(KEY, file);
        SpendLedger ledger = new SpendLedger(file);
        for (String member : root.keySet()) {
            if (!ROOT_KEYS.contains(member)) {
                throw new PolicyFileException(KEY, "unknown member '" + member + "'");
            }
        }
        if (!(root.get("version") instanceof JsonNumber v) || !v.isIntegral() || v.longValue() != 1) {
            throw new PolicyFileException(KEY, "'version' must be the integer 1");
        }
        if (!(root.get("pools") instanceof JsonArray poolArray)) {
            throw new PolicyFileException(KEY, "'pools' must be an array");
        }
        for (JsonValue p : poolArray) {
            if (!(p instanceof JsonObject pool) || !POOL_KEYS.containsAll(pool.keySet())
                    || !SpendRules.token(str(pool, "pool_id")) || !SpendRules.token(str(pool, "window"))) {
                throw new PolicyFileException(KEY, "a pool must be {pool_id, window, capacity} with token ids");
            }
            BigDecimal capacity = SpendRules.amount(pool.get("capacity"));
            if (capacity == null || ledger.pools.containsKey(str(pool, "pool_id"))) {
                throw new PolicyFileException(KEY, "pool '" + str(pool, "pool_id") + "': bad capacity or listed twice");
            }
            ledger.pools.put(str(pool, "pool_id"), new Pool(str(pool, "pool_id"), str(pool, "window"), capacity));
        }
        try {
            for (JsonValue r : root.getJsonArray("reservations") == null ? JsonValue.EMPTY_JSON_ARRAY : root.getJsonArray("reservations")) {
                JsonObject o = (JsonObject) r;
                Reservation res = new Reservation(o.getString("scope_key"), o.getString("caller"), o.getString("pool_id"),
                        o.getString("window"), o.getString("digest"), o.getString("reservation_id"),
                        new BigDecimal(o.getString("amount")), o.getJsonObject("answer"));
                ledger.reservations.put(res.scopeKey(), res);
            }
            for (JsonValue s : root.getJsonArray("settlements") == null ? JsonValue.EMPTY_JSON_ARRAY : root.getJsonArray("settlements")) {
                JsonObject o = (JsonObject) s;
                Settlement st = new Settlement(o.getString("reservation_id"), o.getString("usage_ref"), o.getString("digest"),
                        new BigDecimal(o.getString("amount")), o.getBoolean("final"), o.getJsonObject("answer"));
                ledger.settlements.put(st.reservationId() + " " + st.usageRef(), st);
            }
        } catch (RuntimeException e) {
            throw new PolicyFileException(KEY, "the reservations or settlements the hub wrote are damaged");
        }
        return ledger;
    }

    /** {@code reserve} for {@code caller} (a proven peer hub id). */
    public synchronized Answer reserve(String caller, JsonObject spend) {
        SpendRules.Reserve r = SpendRules.reserve(spend);
        Pool pool = r == null ? null : pools.get(r.poolId());
        if (pool == null) {
            return Answer.REFUSED;
        }
        String scopeKey = scopeKey(caller, pool.id(), pool.window(), r.seat(), r.task(), r.operation(), r.key());
        String digest = SynapseCanonicalJson.sha256Hex(SynapseCanonicalJson.utf8(Jsons.PROVIDER.createObjectBuilder()
                .add("amount", r.amount().toPlainString()).add("provenance", r.provenance()).build()));
        Reservation seen = reservations.get(scopeKey);
        if (seen != null) {
            return seen.digest().equals(digest) ? Answer.ok(seen.answer())
                    : Answer.ok(Jsons.PROVIDER.createObjectBuilder().add("admitted", false)
                            .add("reason", "idempotency_conflict").build());
        }
        if (used(pool).add(r.amount()).compareTo(pool.capacity()) > 0) {
            return Answer.REFUSED;
        }
        String reservationId = "rsv-" + SynapseCanonicalJson.sha256Hex(scopeKey).substring(0, 32);
        JsonObject answer = Jsons.PROVIDER.createObjectBuilder().add("admitted", true).add("reservation_id", reservationId)
                .add("pool_id", pool.id()).add("window", pool.window()).add("amount", r.amount()).build();
        Reservation res = new Reservation(scopeKey, caller, pool.id(), pool.window(), digest, reservationId, r.amount(), answer);
        reservations.put(scopeKey, res);
        if (!persist()) {
            reservations.remove(scopeKey);
            return Answer.REFUSED;
        }
        return Answer.ok(answer);
    }

    /** {@code settle} of one of {@code caller}'s reservations. */
    public synchronized Answer settle(String caller, JsonObject spend) {
        SpendRules.Settle s = SpendRules.settle(spend);
        if (s == null) {
            return Answer.REFUSED;
        }
        Reservation res = reservations.values().stream().filter(x -> x.reservationId().equals(s.reservationId())
                && x.caller().equals(caller) && x.poolId().equals(s.poolId())).findFirst().orElse(null);
        if (res == null) {
            return Answer.REFUSED;
        }
        String key = res.reservationId() + " " + s.usageRef();
        String digest = SynapseCanonicalJson.sha256Hex(SynapseCanonicalJson.utf8(Jsons.PROVIDER.createObjectBuilder()
                .add("amount", s.amount().toPlainString()).add("provenance", s.provenance()).add("final", s.fin()).build()));
        Settlement seen = settlements.get(key);
        if (seen != null) {
            return seen.digest().equals(digest) ? Answer.ok(seen.answer()) : Answer.REFUSED;
        }
        boolean closed = settlements.values().stream().anyMatch(x -> x.reservationId().equals(res.reservationId()) && x.fin());
        if (closed || settled(res.reservationId()).add(s.amount()).compareTo(res.amount()) > 0) {
            return Answer.REFUSED;
        }
        JsonObject answer = Jsons.PROVIDER.createObjectBuilder().add("settled", true).add("reservation_id", res.reservationId())
                .add("usage_ref", s.usageRef()).add("amount", s.amount()).add("final", s.fin()).build();
        settlements.put(key, new Settlement(res.reservationId(), s.usageRef(), digest, s.amount(), s.fin(), answer));
        if (!persist()) {
            settlements.remove(key);
            return Answer.REFUSED;
        }
        return Answer.ok(answer);
    }

    /** {@code query}: the stored reservation answer for a scope in the pool's current window; nothing is created. */
    public synchronized Answer query(String caller, JsonObject spend) {
        SpendRules.Query q = SpendRules.query(spend);
        Pool pool = q == null ? null : pools.get(q.poolId());
        if (pool == null) {
            return Answer.REFUSED;
        }
        Reservation res = reservations.get(scopeKey(caller, pool.id(), pool.window(), q.seat(), q.task(), q.operation(), q.key()));
        if (res == null) {
            return Answer.REFUSED;
        }
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder().add("found", true);
        res.answer().forEach(out::add);
        return Answer.ok(out.build());
    }

    private BigDecimal used(Pool pool) {
        BigDecimal sum = BigDecimal.ZERO;
        for (Reservation r : reservations.values()) {
            if (r.poolId().equals(pool.id()) && r.window().equals(pool.window())) {
                boolean fin = settlements.values().stream().anyMatch(x -> x.reservationId().equals(r.reservationId()) && x.fin());
                BigDecimal settled = settled(r.reservationId());
                sum = sum.add(fin ? settled : r.amount().max(settled));
            }
        }
        return sum;
    }

    private BigDecimal settled(String reservationId) {
        return settlements.values().stream().filter(x -> x.reservationId().equals(reservationId))
                .map(Settlement::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private static String scopeKey(String caller, String pool, String window, String seat, String task, String op, String key) {
        JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder().add(caller).add(pool).add(window).add(seat).add(task).add(op).add(key);
        return SynapseCanonicalJson.utf8(a.build());
    }

    /** Writes the whole ledger atomically (0600); false when it could not be made durable. */
    private boolean persist() {
        JsonArrayBuilder poolArray = Jsons.PROVIDER.createArrayBuilder();
        pools.values().forEach(p -> poolArray.add(Jsons.PROVIDER.createObjectBuilder().add("pool_id", p.id())
                .add("window", p.window()).add("capacity", p.capacity().toPlainString())));
        JsonArrayBuilder resArray = Jsons.PROVIDER.createArrayBuilder();
        reservations.values().forEach(r -> resArray.add(Jsons.PROVIDER.createObjectBuilder().add("scope_key", r.scopeKey())
                .add("caller", r.caller()).add("pool_id", r.poolId()).add("window", r.window()).add("digest", r.digest())
                .add("reservation_id", r.reservationId()).add("amount", r.amount().toPlainString()).add("answer", r.answer())));
        JsonArrayBuilder setArray = Jsons.PROVIDER.createArrayBuilder();
        settlements.values().forEach(s -> setArray.add(Jsons.PROVIDER.createObjectBuilder()
                .add("reservation_id", s.reservationId()).add("usage_ref", s.usageRef()).add("digest", s.digest())
                .add("amount", s.amount().toPlainString()).add("final", s.fin()).add("answer", s.answer())));
        String text = Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("pools", poolArray)
                .add("reservations", resArray).add("settlements", setArray).build().toString();
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + file.getFileName() + "." + HexFormat.of().toHexDigits(System.nanoTime()) + ".tmp");
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException e) {
                // some file systems cannot sync a directory; the rename itself is atomic
            }
            return true;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // nothing more to do
            }
            return false;
        }
    }

    private static String str(JsonObject o, String key) {
        return o.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
