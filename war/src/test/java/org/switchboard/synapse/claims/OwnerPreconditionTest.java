package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * The owner/epoch precondition release, task_update, handoff and checkpoint share (one method in
 * {@link ClaimBook}): each verb refuses in the same order, with its own sentence where the spec
 * gives one, and the epoch guard reads absent, matching, wrong and non-integer epochs alike.
 */
class OwnerPreconditionTest {

    static final double T0 = 1_767_226_400.0;

    final ClaimBook book = new ClaimBook(ClaimBook.Limits.defaults(), note -> { });
    final long epoch;

    OwnerPreconditionTest() {
        book.claim(ClaimRequest.from(Frames.json("{'task_id':'t'}")), "a", "open-host:a", T0, MutationCommit.NONE);
        epoch = book.claimOf("t", T0).epoch();
    }

    /** The sentence each of the four verbs answers {@code sender} for {@code frame} (release, task_update, handoff, checkpoint). */
    List<String> refusals(String sender, String frame) {
        return List.of(
                book.release(ReleaseRequest.from(Frames.json(frame), sender), sender, T0, MutationCommit.NONE).sentence(),
                book.taskUpdate(TaskUpdateRequest.from(Frames.json(frame)), sender, T0, MutationCommit.NONE).sentence(),
                book.handoff(HandoffRequest.from(Frames.json(frame)), sender, Set.of("a", "b")::contains, "open-host:b", T0,
                        MutationCommit.NONE).sentence(),
                book.checkpoint(CheckpointRequest.from(Frames.json(frame)), sender, T0, MutationCommit.NONE).sentence());
    }

    @Test
    void missingTaskIdComesFirst() {
        String required = "Task ID is required.";
        // handoff checks its target's presence before anything (§9.9)
        assertEquals(List.of(required, required, required, required),
                refusals("a", "{'to_agent':'b','epoch':'x','expected_version':true}"));
    }

    @Test
    void unclaimedThenOwnerThenEpoch() {
        assertEquals(List.of("Task 'u' is not currently claimed.", "Task 'u' not found.", "Task 'u' is not currently claimed.",
                "Task 'u' is not currently claimed."), refusals("a", "{'task_id':'u','to_agent':'b','epoch':99}"));
        String owned = "Task 't' is owned by a, not b.";
        assertEquals(List.of(owned, owned, owned, owned), refusals("b", "{'task_id':'t','to_agent':'b','epoch':99}"),
                "ownership before the epoch");
        assertEquals("Task 't' cannot be handed off to its own owner.",
                book.handoff(HandoffRequest.from(Frames.json("{'task_id':'t','to_agent':'a','epoch':99}")), "a",
                        Set.of("a")::contains, "open-host:a", T0, MutationCommit.NONE).sentence(),
                "handoff's own-owner check sits between ownership and the epoch");
        String stale = "Task 't' epoch is stale (current " + epoch + ").";
        assertEquals(List.of(stale, stale, stale, stale), refusals("a", "{'task_id':'t','to_agent':'b','epoch':99}"));
        assertEquals(List.of(stale, stale, stale, stale), refusals("a", "{'task_id':'t','to_agent':'b','epoch':'1'}"),
                "a non-integer epoch never matches");
    }

    @Test
    void taskUpdateChecksItsVersionTypeBeforeTheClaim() {
        assertEquals("Malformed frame: 'expected_version' must be an integer.",
                book.taskUpdate(TaskUpdateRequest.from(Frames.json("{'task_id':'u','expected_version':1.5}")), "b", T0,
                        MutationCommit.NONE).sentence());
    }

    @Test
    void epochGuard() {
        assertTrue(EpochGuard.from(Frames.json("{}")).matches(7));
        assertTrue(EpochGuard.from(Frames.json("{'epoch':null}")).matches(7));
        assertTrue(EpochGuard.from(Frames.json("{'epoch':7}")).matches(7));
        assertFalse(EpochGuard.from(Frames.json("{'epoch':8}")).matches(7));
        assertFalse(EpochGuard.from(Frames.json("{'epoch':7.5}")).matches(7));
        assertFalse(EpochGuard.from(Frames.json("{'epoch':'7'}")).matches(7));
        assertFalse(EpochGuard.from(Frames.json("{'epoch':true}")).matches(7));
        assertTrue(book.checkpoint(CheckpointRequest.from(Frames.json("{'task_id':'t','checkpoint':'c','epoch':" + epoch + "}")),
                "a", T0, MutationCommit.NONE).accepted(), "the lease's own epoch passes");
    }
}
