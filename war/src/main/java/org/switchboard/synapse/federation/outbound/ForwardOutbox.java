package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The outbox in memory, rebuilt from the journal at start: every entry by {@code forward_id}, plus
 * which entries an attempt is running for (so two copies of one queue item never send at once).
 * Settled entries whose receipt is delivered are dropped.
 */
public final class ForwardOutbox {

    /** Pending entries of one peer: how many, and the age of the oldest (§4.9). */
    public record PeerStats(long pending, double oldestPendingSeconds) {
    }

    /**
     * Heap held by one pending entry besides its payload text, measured (issue 18: 20,000 chats with a
     * 15-character payload held 1,529 bytes each, with 1,000 characters 2,519; configuration.md). The
     * payload is counted at 2 bytes a character, the worst case of a string that is not Latin-1.
     */
    public static final long ENTRY_OVERHEAD_BYTES = 1536;

    private final Map<String, ForwardEntry> entries = new ConcurrentHashMap<>();
    private final Set<String> attempting = ConcurrentHashMap.newKeySet();
    private final Set<String> notifying = ConcurrentHashMap.newKeySet();
    // running totals of pending entries, so the admission caps cost O(1) per chat
    private final Map<String, AtomicLong> pendingByPeer = new ConcurrentHashMap<>();
    private final AtomicLong pendingBytes = new AtomicLong();

    /** Adds an entry unless one with its id is there already. */
    public void putIfAbsent(ForwardEntry entry) {
        if (entries.putIfAbsent(entry.forwardId(), entry) == null && entry.pending()) {
            account(entry, 1);
        }
    }

    /** Replaces an entry by applying {@code change}; forgets it once settled with no receipt owed. */
    public ForwardEntry update(String forwardId, UnaryOperator<ForwardEntry> change) {
        return entries.computeIfPresent(forwardId, (id, e) -> {
            ForwardEntry next = change.apply(e);
            if (e.pending() && !next.pending()) {
                account(e, -1);
            }
            return next.pending() || next.receiptOwed() ? next : null;
        });
    }

    private void account(ForwardEntry e, int sign) {
        pendingByPeer.computeIfAbsent(e.peer(), p -> new AtomicLong()).addAndGet(sign);
        pendingBytes.addAndGet(sign * footprint(e.request()));
    }

    /** The heap a pending entry holding {@code request} is counted for: the overhead plus its payload (UTF-16). */
    public static long footprint(JsonObject request) {
        return ENTRY_OVERHEAD_BYTES + 2L * payloadChars(request);
    }

    private static long payloadChars(JsonObject request) {
        if (request == null || !(request.get("body") instanceof JsonObject body)) {
            return 0;
        }
        JsonValue payload = body.get("payload");
        return payload instanceof JsonString s ? s.getString().length() : payload == null ? 0 : payload.toString().length();
    }

    /** Pending entries for {@code peer}, kept as a running count. */
    public long pendingFor(String peer) {
        AtomicLong n = pendingByPeer.get(peer);
        return n == null ? 0 : n.get();
    }

    /** The heap counted for every pending entry ({@link #footprint}). */
    public long pendingBytes() {
        return pendingBytes.get();
    }

    public ForwardEntry get(String forwardId) {
        return entries.get(forwardId);
    }

    /** Claims the right to attempt this entry; false when an attempt is already running. */
    public boolean tryLock(String forwardId) {
        return attempting.add(forwardId);
    }

    public void unlock(String forwardId) {
        attempting.remove(forwardId);
    }

    /** Claims the sending of a settlement receipt (settlement and a registration flush may race); false when taken. */
    public boolean claimNotify(String forwardId) {
        return notifying.add(forwardId);
    }

    /** The receipt was not taken by the socket: another registration may send it. */
    public void releaseNotify(String forwardId) {
        notifying.remove(forwardId);
    }

    /** Every pending entry. */
    public List<ForwardEntry> pending() {
        List<ForwardEntry> out = new ArrayList<>();
        for (ForwardEntry e : entries.values()) {
            if (e.pending()) {
                out.add(e);
            }
        }
        out.sort(Comparator.comparingDouble(ForwardEntry::created));
        return out;
    }

    /** Pending entries whose TTL has run out at {@code now}. */
    public List<ForwardEntry> expiredAt(double now) {
        List<ForwardEntry> out = new ArrayList<>();
        for (ForwardEntry e : entries.values()) {
            if (e.pending() && now >= e.expiresAt()) {
                out.add(e);
            }
        }
        return out;
    }

    /** Pending entries due since before {@code dueBefore} and not being attempted (their queue item may be lost). */
    public List<ForwardEntry> overdue(double dueBefore) {
        List<ForwardEntry> out = new ArrayList<>();
        for (ForwardEntry e : entries.values()) {
            if (e.pending() && e.nextAttemptAt() < dueBefore && !attempting.contains(e.forwardId())) {
                out.add(e);
            }
        }
        return out;
    }

    /** Settled entries of {@code sender} whose settlement receipt is still owed, oldest first. */
    public List<ForwardEntry> owedTo(String sender) {
        List<ForwardEntry> out = new ArrayList<>();
        for (ForwardEntry e : entries.values()) {
            if (e.receiptOwed() && !e.pending() && e.sender().equals(sender)) {
                out.add(e);
            }
        }
        out.sort(Comparator.comparingDouble(ForwardEntry::created));
        return out;
    }

    /** Pending count and oldest age per peer (peers with none pending are absent). */
    public Map<String, PeerStats> statsByPeer(double now) {
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, Double> oldest = new TreeMap<>();
        for (ForwardEntry e : entries.values()) {
            if (e.pending()) {
                counts.computeIfAbsent(e.peer(), p -> new long[1])[0]++;
                oldest.merge(e.peer(), e.created(), Math::min);
            }
        }
        Map<String, PeerStats> out = new TreeMap<>();
        counts.forEach((peer, n) -> out.put(peer, new PeerStats(n[0], Math.max(0, now - oldest.get(peer)))));
        return out;
    }

    /** Every entry held, by forward id (a snapshot writes them; {@link #putIfAbsent} reads them back). */
    public List<ForwardEntry> all() {
        List<ForwardEntry> all = new java.util.ArrayList<>(entries.values());
        all.sort(java.util.Comparator.comparing(ForwardEntry::forwardId));
        return all;
    }
}
