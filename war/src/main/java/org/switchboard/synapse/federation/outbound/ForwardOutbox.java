package org.switchboard.synapse.federation.outbound;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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

    private final Map<String, ForwardEntry> entries = new ConcurrentHashMap<>();
    private final Set<String> attempting = ConcurrentHashMap.newKeySet();
    private final Set<String> notifying = ConcurrentHashMap.newKeySet();

    /** Adds an entry unless one with its id is there already. */
    public void putIfAbsent(ForwardEntry entry) {
        entries.putIfAbsent(entry.forwardId(), entry);
    }

    /** Replaces an entry by applying {@code change}; forgets it once settled with no receipt owed. */
    public ForwardEntry update(String forwardId, UnaryOperator<ForwardEntry> change) {
        return entries.computeIfPresent(forwardId, (id, e) -> {
            ForwardEntry next = change.apply(e);
            return next.pending() || next.receiptOwed() ? next : null;
        });
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
}
