package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WaiterTest {

    private final Waiter waiter = new Waiter(1, null, List::of);

    @Test
    void anEmptyAttemptParksAgain() {
        assertTrue(waiter.startRun());
        assertEquals(Waiter.Outcome.PARK, waiter.finishRun(false));
        assertTrue(waiter.startRun());
    }

    @Test
    void itemsAnswerOnceAndEndTheWaiter() {
        assertTrue(waiter.startRun());
        assertEquals(Waiter.Outcome.ANSWER, waiter.finishRun(true));
        assertFalse(waiter.startRun());
        assertFalse(waiter.expire());
    }

    @Test
    void aWakeDuringAnAttemptIsNotLost() {
        assertTrue(waiter.startRun());
        assertFalse(waiter.startRun()); // a second wake while the first attempt runs
        assertEquals(Waiter.Outcome.RETRY, waiter.finishRun(false));
        assertEquals(Waiter.Outcome.PARK, waiter.finishRun(false));
    }

    @Test
    void aTimeoutDuringAnAttemptLetsTheAttemptAnswer() {
        assertTrue(waiter.startRun());
        assertFalse(waiter.expire());
        assertEquals(Waiter.Outcome.ANSWER, waiter.finishRun(false));
        assertTrue(waiter.done());
    }

    @Test
    void aTimeoutWhileParkedAnswersEmpty() {
        assertTrue(waiter.expire());
        assertFalse(waiter.startRun());
    }
}
