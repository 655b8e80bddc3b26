package org.switchboard.synapse.identity;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * TOFU pins (synapse-advanced §6.5): name → key id and raw public key, read from the {@link PinStore}
 * once and kept in memory, so a registration costs no database read; a new pin is written through
 * before the registration it came with is accepted. Pins change only through §7.1 ({@link #removeIfMatches}).
 */
public final class IdentityPins {

    /** One pin; {@code publicKey} is the 32 raw Ed25519 bytes. */
    public record Pin(String name, String keyId, byte[] publicKey, double pinnedAt) {

        /** True when {@code keyId} and {@code key} are this pin's. */
        public boolean matches(String otherKeyId, byte[] key) {
            return keyId.equals(otherKeyId) && Arrays.equals(publicKey, key);
        }
    }

    private final Supplier<PinStore> storeSource;
    private volatile Map<String, Pin> pins;
    private volatile PinStore store;

    /** Pins kept in the store {@code storeSource} yields (resolved at first use). */
    public IdentityPins(Supplier<PinStore> storeSource) {
        this.storeSource = storeSource;
    }

    private Map<String, Pin> pins() {
        Map<String, Pin> current = pins;
        if (current == null) {
            synchronized (this) {
                if (pins == null) {
                    store = storeSource.get();
                    Map<String, Pin> loaded = new ConcurrentHashMap<>();
                    for (Pin pin : store.loadAll()) {
                        loaded.put(pin.name(), pin);
                    }
                    pins = loaded;
                }
                current = pins;
            }
        }
        return current;
    }

    /** The pin of {@code name}, or null. */
    public Pin get(String name) {
        return pins().get(name);
    }

    /**
     * Pins {@code name} unless it is pinned already; returns the pin now in force (the new one, or
     * the one another registration stored first). The store write happens before the cache update,
     * so a pin the hub acted on is durable.
     */
    public synchronized Pin pinIfAbsent(String name, String keyId, byte[] publicKey, double now) {
        Pin existing = pins().get(name);
        if (existing != null) {
            return existing;
        }
        Pin pin = new Pin(name, keyId, publicKey.clone(), now);
        store.insert(pin);
        pins.put(name, pin);
        return pin;
    }

    /**
     * Removes the pin of {@code name} only while it still holds {@code keyId} (governed reclaim, §7.1):
     * the store row goes first, then the cache. False when the pin is absent or changed; a store
     * failure propagates and leaves the pin in force.
     */
    public synchronized boolean removeIfMatches(String name, String keyId) {
        Pin existing = pins().get(name);
        if (existing == null || !existing.keyId().equals(keyId)) {
            return false;
        }
        if (!store.deleteIfMatches(name, keyId)) {
            return false;
        }
        pins.remove(name, existing);
        return true;
    }

    /** A store in memory only (unit tests, and a hub without a database). */
    public static PinStore memoryStore() {
        return new PinStore() {
            private final Map<String, Pin> rows = new ConcurrentHashMap<>();

            @Override
            public Collection<Pin> loadAll() {
                return List.copyOf(rows.values());
            }

            @Override
            public void insert(Pin pin) {
                if (rows.putIfAbsent(pin.name(), pin) != null) {
                    throw new IllegalStateException("pin exists");
                }
            }

            @Override
            public boolean deleteIfMatches(String name, String keyId) {
                Pin row = rows.get(name);
                return row != null && row.keyId().equals(keyId) && rows.remove(name, row);
            }
        };
    }
}
