package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WaiterTest {

    private final Waiter waiter = new Waiter(1, null, null, PollConnection.UNKNOWN);

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

    @Test
    void aPollWithoutAWaitAnswersAfterOneEmptyAttempt() {
        waiter.lastAttempt();
        assertTrue(waiter.startRun());
        assertEquals(Waiter.Outcome.ANSWER, waiter.finishRun(false));
    }

    @Test
    void aClientGoneWhileParkedIsReleasedAtOnceAndNeverRunsAgain() {
        assertTrue(waiter.disconnect(), "the caller releases it");
        assertTrue(waiter.done());
        assertFalse(waiter.startRun(), "a wake skips it");
        assertFalse(waiter.expire(), "its timeout has nothing left to answer");
        assertTrue(waiter.clientGone());
    }

    @Test
    void aClientGoneDuringAnAttemptMakesTheAttemptGiveBackWhatItTook() {
        assertTrue(waiter.startRun());
        assertFalse(waiter.disconnect(), "the running attempt handles it");
        assertEquals(Waiter.Outcome.GONE, waiter.finishRun(true), "items taken for a gone client are not answered");
        assertTrue(waiter.done());
        assertFalse(waiter.startRun());
    }

    @Test
    void goneWinsOverATimeoutDuringTheSameAttempt() {
        assertTrue(waiter.startRun());
        assertFalse(waiter.expire());
        assertFalse(waiter.disconnect());
        assertEquals(Waiter.Outcome.GONE, waiter.finishRun(false));
    }

    @Test
    void aDisconnectAfterTheAnswerChangesNothing() {
        assertTrue(waiter.startRun());
        assertEquals(Waiter.Outcome.ANSWER, waiter.finishRun(true));
        assertFalse(waiter.disconnect());
    }

    @Test
    void whatWasHandedIsTakenBackOnce() {
        Taken taken = new Taken(1, List.of(), List.of(7L), 1_000, "node");
        waiter.handing(taken);
        assertSame(taken, waiter.takeBackHanded());
        assertNull(waiter.takeBackHanded(), "a second failure report gives back nothing twice");
    }

    @Test
    void aConnectionWithoutAccessIsNeverGone() {
        assertFalse(waiter.clientGone());
        assertTrue(waiter.startRun());
    }
}
