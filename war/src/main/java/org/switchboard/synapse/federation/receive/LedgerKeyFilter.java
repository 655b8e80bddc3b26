package org.switchboard.synapse.federation.receive;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed-size Bloom filter of inbound ledger keys (issue 18 speed): "absent" is certain, so a new
 * forward skips the ledger's database read; "maybe" reads it. Its size never grows; as keys pile up
 * more answers become "maybe", which costs reads, never a wrong answer.
 */
final class LedgerKeyFilter {

    /** 2^24 bits (2 MiB): about 0.2% false "maybe" at a million keys. */
    static final int DEFAULT_BITS_LOG2 = 24;
    private static final int PROBES = 4;

    private final AtomicLongArray words;
    private final long mask;

    /** A filter of {@code 2^bitsLog2} bits. */
    LedgerKeyFilter(int bitsLog2) {
        if (bitsLog2 < 6 || bitsLog2 > 34) {
            throw new IllegalArgumentException("bitsLog2 out of range: " + bitsLog2);
        }
        this.words = new AtomicLongArray((int) ((1L << bitsLog2) >>> 6));
        this.mask = (1L << bitsLog2) - 1;
    }

    /** Adds {@code key}; safe from any thread. */
    void add(String key) {
        long h1 = hash(key, 0x9E3779B97F4A7C15L);
        long h2 = hash(key, 0xC2B2AE3D27D4EB4FL) | 1;
        for (int i = 0; i < PROBES; i++) {
            long bit = (h1 + i * h2) & mask;
            int word = (int) (bit >>> 6);
            long m = 1L << (bit & 63);
            long old = words.get(word);
            while ((old & m) == 0 && !words.compareAndSet(word, old, old | m)) {
                old = words.get(word);
            }
        }
    }

    /** False only when {@code key} was certainly never added. */
    boolean mightContain(String key) {
        long h1 = hash(key, 0x9E3779B97F4A7C15L);
        long h2 = hash(key, 0xC2B2AE3D27D4EB4FL) | 1;
        for (int i = 0; i < PROBES; i++) {
            long bit = (h1 + i * h2) & mask;
            if ((words.get((int) (bit >>> 6)) & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    /** A seeded 64-bit hash of the key's chars (multiply-xorshift mixing per char, a final avalanche). */
    private static long hash(String key, long seed) {
        long h = seed ^ key.length();
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001B3L;
            h ^= h >>> 29;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}
