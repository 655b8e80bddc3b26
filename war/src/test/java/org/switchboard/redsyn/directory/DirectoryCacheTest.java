package org.switchboard.redsyn.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DirectoryCacheTest {

    @Test
    void loadsOnceNeverCachesMissesAndForgetsOnInvalidate() {
        DirectoryCache cache = new DirectoryCache();
        AtomicInteger loads = new AtomicInteger();
        assertEquals("v", cache.get("k", key -> {
            loads.incrementAndGet();
            return "v";
        }));
        assertEquals("v", cache.get("k", key -> "other"));
        assertNull(cache.get("missing", key -> {
            loads.incrementAndGet();
            return null;
        }));
        assertEquals("now there", cache.get("missing", key -> "now there"), "misses are not cached");
        assertEquals(2, loads.get());
        cache.invalidate();
        assertEquals("reloaded", cache.get("k", key -> "reloaded"));
    }
}
