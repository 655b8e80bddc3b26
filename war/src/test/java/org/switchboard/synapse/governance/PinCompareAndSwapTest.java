package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.identity.IdentityPins;
import org.switchboard.synapse.identity.PinStore;

/** The compare-and-swap pin removal §7.1 relies on: only the expected key goes, and a store failure keeps the pin. */
class PinCompareAndSwapTest {

    @Test
    void onlyAPinStillHoldingTheExpectedKeyIsRemoved() {
        IdentityPins pins = new IdentityPins(IdentityPins::memoryStore);
        pins.pinIfAbsent("ACME/w", "k1", new byte[32], 0);
        assertFalse(pins.removeIfMatches("ACME/w", "k2"));
        assertNotNull(pins.get("ACME/w"));
        assertFalse(pins.removeIfMatches("ACME/nobody", "k1"));
        assertTrue(pins.removeIfMatches("ACME/w", "k1"));
        assertNull(pins.get("ACME/w"));
        assertFalse(pins.removeIfMatches("ACME/w", "k1"), "a second removal found a pin");
        assertEquals("k3", pins.pinIfAbsent("ACME/w", "k3", new byte[32], 1).keyId(), "the name could not be pinned again");
    }

    @Test
    void aStoreThatCannotDeleteLeavesThePinInForce() {
        PinStore failing = new PinStore() {
            @Override
            public Collection<IdentityPins.Pin> loadAll() {
                return List.of(new IdentityPins.Pin("ACME/w", "k1", new byte[32], 0));
            }

            @Override
            public void insert(IdentityPins.Pin pin) {
            }

            @Override
            public boolean deleteIfMatches(String name, String keyId) {
                throw new IllegalStateException("disk full");
            }
        };
        IdentityPins pins = new IdentityPins(() -> failing);
        assertThrows(IllegalStateException.class, () -> pins.removeIfMatches("ACME/w", "k1"));
        assertEquals("k1", pins.get("ACME/w").keyId());
    }
}
