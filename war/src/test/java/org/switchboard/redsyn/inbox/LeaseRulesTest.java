package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.message.DeliveryState;

class LeaseRulesTest {

    private static final long NOW = 1_000_000;
    private static final long LATER = NOW + 60_000;

    private static LeaseRules.Candidate queued(String id, String session) {
        return new LeaseRules.Candidate(id, DeliveryState.QUEUED, 0, 0, LATER, session, null);
    }

    private static LeaseRules.Candidate leased(String id, String session, long until, int attempts) {
        return new LeaseRules.Candidate(id, DeliveryState.TAKEN, until, attempts, LATER, session, null);
    }

    @Test
    void takesQueuedInOrder() {
        assertEquals(List.of("1", "2", "3"), LeaseRules.choose(List.of(queued("1", "a"), queued("2", "b"), queued("3", "a")), NOW, 10, 100, null));
    }

    @Test
    void aLeasedMessageHoldsBackLaterOnesOfItsSessionOnly() {
        List<LeaseRules.Candidate> c = List.of(leased("1", "a", LATER, 1), queued("2", "a"), queued("3", "b"));
        assertEquals(List.of("3"), LeaseRules.choose(c, NOW, 10, 100, null));
    }

    @Test
    void anExpiredLeaseIsTakenAgainFirst() {
        List<LeaseRules.Candidate> c = List.of(leased("1", "a", NOW - 1, 1), queued("2", "a"));
        assertEquals(List.of("1", "2"), LeaseRules.choose(c, NOW, 10, 100, null));
    }

    @Test
    void skipsExpiredTtlAndMessagesDueForAbandon() {
        LeaseRules.Candidate expired = new LeaseRules.Candidate("1", DeliveryState.QUEUED, 0, 0, NOW, "a", null);
        LeaseRules.Candidate tooOften = leased("2", "b", NOW - 1, 10);
        assertEquals(List.of("3"), LeaseRules.choose(List.of(expired, tooOften, queued("3", "c")), NOW, 10, 100, null));
    }

    @Test
    void replyToFiltersWithoutBreakingOrder() {
        LeaseRules.Candidate other = new LeaseRules.Candidate("1", DeliveryState.QUEUED, 0, 0, LATER, "t", "r0");
        LeaseRules.Candidate mine = new LeaseRules.Candidate("2", DeliveryState.QUEUED, 0, 0, LATER, "u", "r1");
        LeaseRules.Candidate mineLater = new LeaseRules.Candidate("3", DeliveryState.QUEUED, 0, 0, LATER, "t", "r1");
        assertEquals(List.of("2"), LeaseRules.choose(List.of(other, mine, mineLater), NOW, 10, 100, "r1"));
    }

    @Test
    void respectsMaxItems() {
        assertEquals(List.of("1", "2"), LeaseRules.choose(List.of(queued("1", "a"), queued("2", "b"), queued("3", "c")), NOW, 10, 2, null));
    }

    @Test
    void abandonAfterTheLastAttempt() {
        assertEquals(LeaseRules.Expiry.REQUEUE, LeaseRules.onLeaseExpired(9, 10));
        assertEquals(LeaseRules.Expiry.ABANDON, LeaseRules.onLeaseExpired(10, 10));
    }

    @Test
    void leaseAndWaitBounds() {
        assertEquals(900, LeaseRules.leaseSeconds(null, 900, 86400));
        assertEquals(1, LeaseRules.leaseSeconds(0, 900, 86400));
        assertEquals(86400, LeaseRules.leaseSeconds(999_999, 900, 86400));
        assertEquals(0, LeaseRules.waitSeconds(null, 25));
        assertEquals(25, LeaseRules.waitSeconds(60, 25));
        assertEquals(10, LeaseRules.waitSeconds(10, 25));
    }

    @Test
    void anAckConfirmsWhatWasTakenAndRefusesWhatNeverWasOrEndedOtherwise() {
        assertEquals(LeaseRules.AckOutcome.CONFIRM, LeaseRules.onAck(DeliveryState.TAKEN, 1));
        assertEquals(LeaseRules.AckOutcome.CONFIRM, LeaseRules.onAck(DeliveryState.QUEUED, 1)); // its lease ran out, not yet retaken
        assertEquals(LeaseRules.AckOutcome.REFUSE, LeaseRules.onAck(DeliveryState.QUEUED, 0)); // never taken
        assertEquals(LeaseRules.AckOutcome.ALREADY_DONE, LeaseRules.onAck(DeliveryState.DONE, 1));
        assertEquals(LeaseRules.AckOutcome.REFUSE, LeaseRules.onAck(DeliveryState.ABANDONED, 10));
        assertEquals(LeaseRules.AckOutcome.REFUSE, LeaseRules.onAck(DeliveryState.EXPIRED, 1));
        assertEquals(LeaseRules.AckOutcome.REFUSE, LeaseRules.onAck(DeliveryState.CANCELLED, 0));
    }
}
