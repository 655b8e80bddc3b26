package org.switchboard.synapse.identity;

import java.util.Collection;

/** Durable home of TOFU pins (the {@code identity_pin} table in the server, a map in unit tests). */
public interface PinStore {

    /** Every stored pin (read once, at first use). */
    Collection<IdentityPins.Pin> loadAll();

    /** Stores a new pin durably before returning; throws when it could not. */
    void insert(IdentityPins.Pin pin);

    /**
     * Deletes the pin of {@code name} only if it still holds {@code keyId} (compare-and-swap, §7.1);
     * true when a row was deleted, false when the pin is gone or changed; throws when it could not.
     */
    default boolean deleteIfMatches(String name, String keyId) {
        throw new UnsupportedOperationException("this pin store cannot remove pins");
    }
}
