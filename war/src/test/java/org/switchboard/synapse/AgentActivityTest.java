package org.switchboard.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The reaction age {@code who_snapshot} reports: null without a reaction, never negative, never NaN. */
class AgentActivityTest {

    @Test
    void theAgeIsNullUntilAReactionAndAfterItIsForgotten() {
        AgentActivity activity = new AgentActivity();
        assertNull(activity.reactionAge(100));
        activity.reacted(90);
        assertEquals(10.0, activity.reactionAge(100));
        assertEquals(0.0, activity.reactionAge(80), "a clock step back is age 0, not negative");
        activity.forgetReaction();
        assertNull(activity.reactionAge(100));
    }
}
