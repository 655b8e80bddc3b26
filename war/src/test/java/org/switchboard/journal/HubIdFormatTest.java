package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HubIdFormatTest {

    @Test
    void generatedIdsAreSynDashEightLowercaseHexDigits() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            String id = HubIdFormat.generate(random);
            assertTrue(id.matches("syn-[0-9a-f]{8}"), id);
            assertTrue(HubIdFormat.isGenerated(id));
        }
        assertNotEquals(HubIdFormat.generate(new SplittableRandom(1)), HubIdFormat.generate(new SplittableRandom(2)));
    }

    @Test
    void recognisesOnlyTheGeneratedShape() {
        assertFalse(HubIdFormat.isGenerated("syn-1A2B3C4D"));
        assertFalse(HubIdFormat.isGenerated("syn-1a2b3c4"));
        assertFalse(HubIdFormat.isGenerated("hub-1a2b3c4d"));
        assertFalse(HubIdFormat.isGenerated(null));
    }

    @Test
    void configuredIdWinsThenStoredIdThenNothing() {
        assertEquals("hub-west", HubIdFormat.choose(" hub-west ", "syn-1a2b3c4d"));
        assertEquals("syn-1a2b3c4d", HubIdFormat.choose("", "syn-1a2b3c4d"));
        assertEquals("syn-1a2b3c4d", HubIdFormat.choose(null, "syn-1a2b3c4d"));
        assertNull(HubIdFormat.choose(null, null));
        assertNull(HubIdFormat.choose("  ", "garbage"), "a damaged stored id is regenerated");
    }
}
