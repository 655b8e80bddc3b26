package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The per-key sliding window behind the enrolment rate and the guard-evidence window. */
class SlidingWindowTest {

    @Test
    void eventsAreCountedPerKeyAndSlideOut() {
        SlidingWindow w = new SlidingWindow(2, 1_000, 60, 10);
        w.record("a", 1, 0);
        w.record("a", 1, 30);
        assertEquals("events", w.refusal("a", 1, 59));
        assertNull(w.refusal("b", 1, 59), "another key has its own window");
        assertNull(w.refusal("a", 1, 60.5), "the first event slid out after 60 s");
    }

    @Test
    void bytesOversizedAndKeyCapacityAreTheirOwnReasons() {
        SlidingWindow w = new SlidingWindow(100, 100, 60, 2);
        assertEquals("oversized", w.refusal("a", 101, 0));
        w.record("a", 80, 0);
        assertEquals("bytes", w.refusal("a", 21, 1));
        assertNull(w.refusal("a", 20, 1));
        w.record("b", 1, 0);
        assertEquals("principal-capacity", w.refusal("c", 1, 1));
        assertNull(w.refusal("c", 1, 61), "idle keys are dropped once their window empties");
    }
}
