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

    private static final Set<String> ROOT_KEYS = Set.of("version", "pools", "reservations", "settlements", "consumed");
    /** Default live reservations one caller hub may hold in one pool. */
    public static final int DEFAULT_MAX_LIVE = 1024;
    /** Default time a closed reservation (or one of a past window) is kept for idempotent retries: 24 h. */
    public static final long DEFAULT_RETENTION_SECONDS = 86_400;

    /**
     * The bounds of the file (ours, issue 18): at most {@code maxLive} live reservations per (caller hub,
     * pool) — a reserve beyond it is not admitted — and closed reservations (final settlement) kept
     * {@code retentionSeconds} after closing, reservations of a window the pool has left kept that long
     * after creation; at most {@code maxLive} closed ones per (caller, pool), the oldest dropped first.
     */
    public record Limits(int maxLive, long retentionSeconds) {
        /** The defaults. */
        public static Limits defaults() {
            return new Limits(DEFAULT_MAX_LIVE, DEFAULT_RETENTION_SECONDS);
        }
    }
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

    /** {@code closedAt}: when its final settlement was made (null while live). */
    private record Reservation(String scopeKey, String caller, String poolId, String window, String digest,
                               String reservationId, BigDecimal amount, JsonObject answer, double createdAt,
                               Double closedAt) {
        Reservation closed(double at) {
            return new Reservation(scopeKey, caller, poolId, window, digest, reservationId, amount, answer, createdAt, at);
        }
    }

    private record Settlement(String reservationId, String usageRef, String digest, BigDecimal amount, boolean fin,
                              JsonObject answer) {
    }

    private final Path file;
    private final Limits limits;
    private final Map<String, Pool> pools = new LinkedHashMap<>();
    private final Map<String, Reservation> reservations = new LinkedHashMap<>();
    private final Map<String, Settlement> settlements = new LinkedHashMap<>();
    /** What dropped closed reservations consumed, per {@code pool_id + " " + window}: their capacity stays used. */
    private final Map<String, BigDecimal> consumed = new LinkedHashMap<>();

    private SpendLedger(Path file, Limits limits) {
        this.file = file;
        this.limits = limits;
    }

    /** Loads the ledger with the default {@link Limits}. */
    public static SpendLedger load(Path file) {
        return load(file, Limits.defaults());
    }

    /** Loads the ledger (strict, owner-only); a fault is a {@link PolicyFileException} naming {@link #KEY}. */
    public static SpendLedger load(Path file, Limits limits) {
        JsonObject root = PolicyFiles.readObject(KEY, file);
        SpendLedger ledger = new SpendLedger(file, limits);
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
                        new BigDecimal(o.getString("amount")), o.getJsonObject("answer"),
                        o.containsKey("created_at") ? o.getJsonNumber("created_at").doubleValue() : 0,
                        o.get("closed_at") instanceof JsonNumber c ? c.doubleValue() : null);
                ledger.reservations.put(res.scopeKey(), res);
            }
            for (JsonValue s : root.getJsonArray("settlements") == null ? JsonValue.EMPTY_JSON_ARRAY : root.getJsonArray("settlements")) {
                JsonObject o = (JsonObject) s;
                Settlement st = new Settlement(o.getString("reservation_id"), o.getString("usage_ref"), o.getString("digest"),
                        new BigDecimal(o.getString("amount")), o.getBoolean("final"), o.getJsonObject("answer"));
                ledger.settlements.put(st.reservationId() + " " + st.usageRef(), st);
            }
            for (JsonValue c : root.getJsonArray("consumed") == null ? JsonValue.EMPTY_JSON_ARRAY : root.getJsonArray("consumed")) {
                JsonObject o = (JsonObject) c;
                ledger.consumed.put(o.getString("pool_id") + " " + o.getString("window"), new BigDecimal(o.getString("amount")));
            }
            // a file written before reservations carried closed_at: a final settlement closed it
            for (Reservation r : java.util.List.copyOf(ledger.reservations.values())) {
                if (r.closedAt() == null && ledger.settlements.values().stream()
                        .anyMatch(x -> x.reservationId().equals(r.reservationId()) && x.fin())) {
                    ledger.reservations.put(r.scopeKey(), r.closed(r.createdAt()));
                }
            }
        } catch (RuntimeException e) {
            throw new PolicyFileException(KEY, "the reservations or settlements the hub wrote are damaged");
        }
        return ledger;
    }

    /** {@code reserve} for {@code caller} (a proven peer hub id) at {@code now} (epoch seconds). */
    public synchronized Answer reserve(String caller, JsonObject spend, double now) {
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
        if (liveCount(caller, pool) >= limits.maxLive() || used(pool).add(r.amount()).compareTo(pool.capacity()) > 0) {
            return Answer.REFUSED;
        }
        String reservationId = "rsv-" + SynapseCanonicalJson.sha256Hex(scopeKey).substring(0, 32);
        JsonObject answer = Jsons.PROVIDER.createObjectBuilder().add("admitted", true).add("reservation_id", reservationId)
                .add("pool_id", pool.id()).add("window", pool.window()).add("amount", r.amount()).build();
        Reservation res = new Reservation(scopeKey, caller, pool.id(), pool.window(), digest, reservationId, r.amount(), answer,
                now, null);
        Snapshot before = snapshot();
        reservations.put(scopeKey, res);
        prune(now);
        if (!persist()) {
            restore(before);
            return Answer.REFUSED;
        }
        return Answer.ok(answer);
    }

    /** {@code settle} of one of {@code caller}'s reservations at {@code now}. */
    public synchronized Answer settle(String caller, JsonObject spend, double now) {
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
        boolean closed = res.closedAt() != null;
        if (closed || settled(res.reservationId()).add(s.amount()).compareTo(res.amount()) > 0) {
            return Answer.REFUSED;
        }
        JsonObject answer = Jsons.PROVIDER.createObjectBuilder().add("settled", true).add("reservation_id", res.reservationId())
                .add("usage_ref", s.usageRef()).add("amount", s.amount()).add("final", s.fin()).build();
        Snapshot before = snapshot();
        settlements.put(key, new Settlement(res.reservationId(), s.usageRef(), digest, s.amount(), s.fin(), answer));
        if (s.fin()) {
            reservations.put(res.scopeKey(), res.closed(now));
        }
        prune(now);
        if (!persist()) {
            restore(before);
            return Answer.REFUSED;
        }
        return Answer.ok(answer);
    }

    /** {@code query}: the stored reservation answer for a scope in the pool's current window; nothing is created. */
    public synchronized Answer query(String caller, JsonObject spend, double now) {
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

    private record Snapshot(Map<String, Reservation> reservations, Map<String, Settlement> settlements,
                            Map<String, BigDecimal> consumed) {
    }

    private Snapshot snapshot() {
        return new Snapshot(new LinkedHashMap<>(reservations), new LinkedHashMap<>(settlements), new LinkedHashMap<>(consumed));
    }

    /** Puts the maps back as they were: a decision that could not be made durable changes nothing. */
    private void restore(Snapshot s) {
        reservations.clear();
        reservations.putAll(s.reservations());
        settlements.clear();
        settlements.putAll(s.settlements());
        consumed.clear();
        consumed.putAll(s.consumed());
    }

    /** Live reservations of {@code caller} in the pool's current window (not closed by a final settlement). */
    private long liveCount(String caller, Pool pool) {
        long n = 0;
        for (Reservation r : reservations.values()) {
            if (r.closedAt() == null && r.caller().equals(caller) && r.poolId().equals(pool.id()) && r.window().equals(pool.window())) {
                n++;
            }
        }
        return n;
    }

    /**
     * Drops what idempotency no longer needs (ours, issue 18): a closed reservation {@code retention}
     * after its final settlement, a reservation of a window its pool has left {@code retention} after it
     * was made, and the oldest closed ones of a (caller, pool) beyond {@code maxLive}. A dropped closed
     * reservation of the current window leaves what it consumed in {@link #consumed}, so dropping never
     * gives capacity back; its retry after that is a new request.
     */
    private void prune(double now) {
        double keep = limits.retentionSeconds();
        Map<String, java.util.List<Reservation>> closedByOwner = new LinkedHashMap<>();
        java.util.List<Reservation> drop = new java.util.ArrayList<>();
        for (Reservation r : reservations.values()) {
            Pool pool = pools.get(r.poolId());
            boolean current = pool != null && pool.window().equals(r.window());
            if (!current) {
                if (now - r.createdAt() >= keep) {
                    drop.add(r);
                }
            } else if (r.closedAt() != null) {
                if (now - r.closedAt() >= keep) {
                    drop.add(r);
                } else {
                    closedByOwner.computeIfAbsent(r.caller() + " " + r.poolId(), k -> new java.util.ArrayList<>()).add(r);
                }
            }
        }
        for (java.util.List<Reservation> closed : closedByOwner.values()) {
            if (closed.size() > limits.maxLive()) {
                closed.sort(java.util.Comparator.comparingDouble(Reservation::closedAt));
                drop.addAll(closed.subList(0, closed.size() - limits.maxLive()));
            }
        }
        for (Reservation r : drop) {
            Pool pool = pools.get(r.poolId());
            if (pool != null && pool.window().equals(r.window())) {
                consumed.merge(r.poolId() + " " + r.window(), settled(r.reservationId()), BigDecimal::add);
            }
            reservations.remove(r.scopeKey());
            settlements.values().removeIf(x -> x.reservationId().equals(r.reservationId()));
        }
        // a window the pool has left no longer needs its sum
        consumed.keySet().removeIf(k -> {
            int sp = k.indexOf(' ');
            Pool pool = pools.get(k.substring(0, sp));
            return pool == null || !pool.window().equals(k.substring(sp + 1));
        });
    }

    /** Reservations and settlements held in the file (tests, metrics). */
    public synchronized int size() {
        return reservations.size() + settlements.size();
    }

    private BigDecimal used(Pool pool) {
        BigDecimal sum = consumed.getOrDefault(pool.id() + " " + pool.window(), BigDecimal.ZERO);
        Map<String, BigDecimal> settledBy = new java.util.HashMap<>();
        for (Settlement x : settlements.values()) {
            settledBy.merge(x.reservationId(), x.amount(), BigDecimal::add);
        }
        for (Reservation r : reservations.values()) {
            if (r.poolId().equals(pool.id()) && r.window().equals(pool.window())) {
                BigDecimal settled = settledBy.getOrDefault(r.reservationId(), BigDecimal.ZERO);
                // closed by a final settlement: what was settled; else the reservation (or more, if settled beyond)
                sum = sum.add(r.closedAt() != null ? settled : r.amount().max(settled));
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
                .add("reservation_id", r.reservationId()).add("amount", r.amount().toPlainString()).add("answer", r.answer())
                .add("created_at", r.createdAt()).add("closed_at", r.closedAt() == null ? JsonValue.NULL
                        : Jsons.PROVIDER.createValue(r.closedAt()))));
        JsonArrayBuilder setArray = Jsons.PROVIDER.createArrayBuilder();
        settlements.values().forEach(s -> setArray.add(Jsons.PROVIDER.createObjectBuilder()
                .add("reservation_id", s.reservationId()).add("usage_ref", s.usageRef()).add("digest", s.digest())
                .add("amount", s.amount().toPlainString()).add("final", s.fin()).add("answer", s.answer())));
        JsonArrayBuilder consumedArray = Jsons.PROVIDER.createArrayBuilder();
        consumed.forEach((k, amount) -> consumedArray.add(Jsons.PROVIDER.createObjectBuilder()
                .add("pool_id", k.substring(0, k.indexOf(' '))).add("window", k.substring(k.indexOf(' ') + 1))
                .add("amount", amount.toPlainString())));
        String text = Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("pools", poolArray)
                .add("reservations", resArray).add("settlements", setArray).add("consumed", consumedArray).build().toString();
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
