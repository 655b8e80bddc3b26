package org.switchboard.redsyn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;

class VersionDatesTest {

    @Test
    void headerWinsWhenKnown() {
        assertEquals("2026-09-25", VersionDates.resolve("2026-09-25", null));
    }

    @Test
    void pinnedDateAppliesWithoutHeader() {
        assertEquals("2026-09-25", VersionDates.resolve(null, "2026-09-25"));
        assertEquals(VersionDates.latest(), VersionDates.resolve("", null));
    }

    @Test
    void unknownDateIs400ListingTheKnownOnes() {
        RedsynException e = assertThrows(RedsynException.class, () -> VersionDates.resolve("2020-01-01", null));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("2026-09-25"));
        assertEquals(VersionDates.KNOWN, e.extra().get("known"));
    }
}
