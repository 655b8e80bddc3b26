package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bounded replay cache: once per identity, refusal (never eviction) when full, write-through and priming. */
class NonceCacheTest {

    /** An in-memory stand-in for the table. */
    static final class MapStore implements NonceStore {
        final Map<String, Double> rows = new HashMap<>();

        @Override
        public Map<String, Double> live(double now) {
            Map<String, Double> live = new HashMap<>();
            rows.forEach((id, expiry) -> {
                if (expiry >= now) {
                    live.put(id, expiry);
                }
            });
            return live;
        }

        @Override
        public boolean record(String id, double expiresAt) {
            return rows.putIfAbsent(id, expiresAt) == null;
        }

        @Override
        public void prune(double now) {
            rows.values().removeIf(expiry -> expiry < now);
        }
    }

    @Test
    void anIdentityIsAdmittedOnce() {
        NonceCache cache = new NonceCache(4, NonceStore.NONE, 100);
        assertEquals(NonceCache.Admission.ADMITTED, cache.admit("a", 111, 100));
        assertEquals(NonceCache.Admission.REPLAYED, cache.admit("a", 111, 101));
    }

    @Test
    void aFullCacheOfLiveEntriesRefusesAndEvictsNothing() {
        NonceCache cache = new NonceCache(2, NonceStore.NONE, 100);
        cache.admit("a", 111, 100);
        cache.admit("b", 111, 100);
        assertEquals(NonceCache.Admission.FULL, cache.admit("c", 111, 100));
        assertEquals(2, cache.size());
        assertEquals(NonceCache.Admission.REPLAYED, cache.admit("a", 111, 105), "the old entry is still there");
    }

    @Test
    void expiredEntriesMakeRoomWhenTheCacheIsFull() {
        NonceCache cache = new NonceCache(2, NonceStore.NONE, 100);
        cache.admit("a", 105, 100);
        cache.admit("b", 111, 100);
        assertEquals(NonceCache.Admission.ADMITTED, cache.admit("c", 120, 106));
        assertEquals(2, cache.size());
    }

    @Test
    void admittedNoncesAreWrittenThroughAndSurviveARestart() {
        MapStore store = new MapStore();
        NonceCache before = new NonceCache(8, store, 100);
        before.admit("a", 111, 100);
        before.admit("old", 101, 100);
        assertEquals(2, store.rows.size());
        NonceCache after = new NonceCache(8, store, 105); // restart: primed from the store, expired rows pruned
        assertEquals(NonceCache.Admission.REPLAYED, after.admit("a", 111, 105));
        assertEquals(1, store.rows.size());
    }

    @Test
    void aStoreThatAlreadyHoldsTheIdRefusesIt() {
        MapStore store = new MapStore();
        NonceCache one = new NonceCache(8, store, 100);
        NonceCache two = new NonceCache(8, store, 100); // e.g. a row written after this cache was primed
        one.admit("a", 111, 100);
        assertEquals(NonceCache.Admission.REPLAYED, two.admit("a", 111, 100));
    }

    @Test
    void theIdSeparatesItsParts() {
        assertNotEquals(NonceCache.id("hmac", "k1", "ab", "c"), NonceCache.id("hmac", "k1", "a", "bc"));
        assertEquals(NonceRowKey.MAX_ID_CHARS, NonceCache.id("hmac", "k1", "a", "b").length(), "fits a row key");
    }

    @Test
    void expiredRowsArePrunedPeriodicallyEvenWhenTheCacheIsNotFull() {
        MapStore store = new MapStore();
        NonceCache cache = new NonceCache(1_000, store, 100);
        cache.admit("old", 102, 100);
        cache.admit("a", 111, 101);
        assertEquals(2, store.rows.size());
        cache.admit("b", 125, 100 + NonceCache.PRUNE_INTERVAL_SECONDS + 1); // "old" expired, the cache far from full
        assertEquals(java.util.Set.of("a", "b"), store.rows.keySet());
        assertEquals(2, cache.size());
        assertEquals(NonceCache.Admission.REPLAYED, cache.admit("a", 111, 111), "a live entry is never pruned");
    }

    @Test
    void theStoreIsPrunedEverySecondWhileTheMapWaitsForItsInterval() {
        MapStore store = new MapStore();
        NonceCache cache = new NonceCache(1_000, store, 100);
        String[] ids = {"old", "a", "b"};
        double[] expiries = {100.5, 111, 112};
        double[] admittedAt = {100, 100.2, 101.1};
        for (int i = 0; i < ids.length; i++) {
            assertEquals(NonceCache.Admission.ADMITTED, cache.admit(ids[i], expiries[i], admittedAt[i]));
        }
        assertEquals(java.util.Set.of("a", "b"), store.rows.keySet(), "\"old\" left the table a second on");
        assertEquals(3, cache.size(), "the map is scanned only every " + NonceCache.PRUNE_INTERVAL_SECONDS + " s");
        assertEquals(NonceCache.Admission.REPLAYED, cache.admit("a", 111, 102), "a live entry is never pruned");
    }

    @Test
    void aFullCacheScansAndPrunesOnlyOnceSomethingCanHaveExpired() {
        int[] prunes = {0};
        MapStore rows = new MapStore();
        NonceStore counting = new NonceStore() {
            @Override
            public java.util.Map<String, Double> live(double now) {
                return rows.live(now);
            }

            @Override
            public boolean record(String id, double expiresAt) {
                return rows.record(id, expiresAt);
            }

            @Override
            public void prune(double now) {
                prunes[0]++;
                rows.prune(now);
            }
        };
        NonceCache cache = new NonceCache(2, counting, 100);
        int atStart = prunes[0];
        cache.admit("a", 108, 100);
        cache.admit("b", 111, 100);
        for (int i = 0; i < 100; i++) { // an attacker with a key keeps the full cache busy
            assertEquals(NonceCache.Admission.FULL, cache.admit("x" + i, 111, 101));
        }
        assertEquals(1, prunes[0] - atStart, "one scan and prune found nothing expiring before 108; the rest were refused at once");
        assertEquals(NonceCache.Admission.ADMITTED, cache.admit("c", 120, 109), "\"a\" expired at 108: room again");
        assertEquals(NonceCache.Admission.REPLAYED, cache.admit("b", 111, 109));
    }
}
