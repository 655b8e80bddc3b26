package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VisibilityTest {

    @Test
    void ownerSeesEverything() {
        assertEquals(Visibility.OWNER, Visibility.of(true, false, true));
        assertTrue(Visibility.OWNER.shows(false));
    }

    @Test
    void participantSeesOnlyItsOwnMessages() {
        assertEquals(Visibility.PARTICIPANT, Visibility.of(false, true, false));
        assertTrue(Visibility.PARTICIPANT.shows(true));
        assertFalse(Visibility.PARTICIPANT.shows(false));
    }

    @Test
    void restOfTheOrganisationOnlyKnowsItExists() {
        assertEquals(Visibility.EXISTS, Visibility.of(false, false, true));
        assertFalse(Visibility.EXISTS.shows(true));
        assertEquals(Visibility.NONE, Visibility.of(false, false, false));
    }
}
