package org.switchboard.synapse.messageauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import org.switchboard.crypto.Hex;

/**
 * The bounded replay cache of §6.3: an identity {@code (kid, sender, nonce)} is admitted once while
 * it could still pass the timestamp window. When the cache is full of live entries a new identity is
 * refused rather than an old one evicted (eviction would reopen a replay). Written through to a
 * {@link NonceStore} before it admits, so a restart keeps every nonce it accepted.
 */
public final class NonceCache {

    /** What {@link #admit} decided. */
    public enum Admission { ADMITTED, REPLAYED, FULL }

    /** How often expired entries leave the map even when the cache is not full. */
    static final double PRUNE_INTERVAL_SECONDS = 10;
    /**
     * How often expired rows leave the store: more often than the map, so each delete is a second's rows
     * rather than ten seconds' (one long delete transaction made the journal's commits meanwhile rewrite
     * the pages it touched; issue 17).
     */
    static final double STORE_PRUNE_INTERVAL_SECONDS = 1;

    private final int capacity;
    private final NonceStore store;
    private final Map<String, Double> live = new HashMap<>();
    private double nextPrune;
    private double nextStorePrune;
    // no held entry expires before this: set by each purge, lowered by each entry added
    private double earliestExpiry = Double.NEGATIVE_INFINITY;

    /** A cache of at most {@code capacity} live entries over {@code store}, primed with its live rows. */
    public NonceCache(int capacity, NonceStore store, double now) {
        this.capacity = Math.max(1, capacity);
        this.store = store;
        store.pruneAll(now);
        live.putAll(store.live(now));
        nextPrune = now + PRUNE_INTERVAL_SECONDS;
        nextStorePrune = now + STORE_PRUNE_INTERVAL_SECONDS;
    }

    /**
     * The id of an identity: SHA-256 over its parts, so any nonce fits a fixed-width key; its first
     * {@value NonceRowKey#MAX_ID_CHARS} hex digits (208 bits), so the stored key can lead with the expiry
     * ({@link NonceRowKey}).
     */
    public static String id(String namespace, String kid, String sender, String nonce) {
        MessageDigest sha = Hex.sha256Engine(); // digest() below resets it for the thread's next id
        for (String part : new String[] {namespace, kid, sender, nonce}) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha.update((byte) (bytes.length >>> 24));
            sha.update((byte) (bytes.length >>> 16));
            sha.update((byte) (bytes.length >>> 8));
            sha.update((byte) bytes.length);
            sha.update(bytes);
        }
        return HexFormat.of().formatHex(sha.digest()).substring(0, NonceRowKey.MAX_ID_CHARS);
    }

    /**
     * Admits {@code id} until {@code expiresAt} unless it was seen or the cache is full of live entries.
     * The entry is reserved under the lock and written to the store outside it, so concurrent senders
     * do not queue behind one another's database write; a failed write takes the reservation back.
     */
    public Admission admit(String id, double expiresAt, double now) {
        boolean prune = false;
        synchronized (this) {
            Double seen = live.get(id);
            if (seen != null && seen >= now) {
                return Admission.REPLAYED;
            }
            if (now >= nextPrune) {
                // keep the map near the live set
                nextPrune = now + PRUNE_INTERVAL_SECONDS;
                purge(now);
            }
            if (now >= nextStorePrune) {
                // keep the table (whose every commit rewrites its changed pages) near the live set
                nextStorePrune = now + STORE_PRUNE_INTERVAL_SECONDS;
                prune = true;
            }
            if (live.size() >= capacity) {
                if (now < earliestExpiry) {
                    return Admission.FULL; // nothing can have expired since the last scan: no scan per refused frame
                }
                purge(now);
                store.prune(now);
                if (live.size() >= capacity) {
                    return Admission.FULL;
                }
            }
            live.put(id, expiresAt);
            earliestExpiry = Math.min(earliestExpiry, expiresAt);
        }
        if (prune) {
            store.prune(now); // outside the lock: other senders are not held up by the delete
        }
        if (!store.record(id, expiresAt)) {
            synchronized (this) {
                live.remove(id, expiresAt);
            }
            return Admission.REPLAYED;
        }
        return Admission.ADMITTED;
    }

    /** Drops the entries expired before {@code now} and notes when the next one expires. */
    private void purge(double now) {
        double earliest = Double.POSITIVE_INFINITY;
        for (Iterator<Double> it = live.values().iterator(); it.hasNext(); ) {
            double expiry = it.next();
            if (expiry < now) {
                it.remove();
            } else if (expiry < earliest) {
                earliest = expiry;
            }
        }
        earliestExpiry = earliest;
    }

    /** Entries held (live or not yet purged). */
    public synchronized int size() {
        return live.size();
    }
}
