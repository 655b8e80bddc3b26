package org.switchboard.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StopSignalTest {

    @Test
    void anActionIsRegisteredUntilClosed() {
        StopSignal signal = StopSignal.onStop("stop-signal-test", () -> { });
        assertTrue(signal.registered());
        signal.close();
        assertFalse(signal.registered());
        signal.close(); // twice is harmless
    }

    @Test
    void theContainersStopNoticeRunsEachLiveActionOnceAndSkipsClosedOnes() {
        AtomicInteger live = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        StopSignal kept = StopSignal.onStop("stop-signal-test-live", live::incrementAndGet);
        StopSignal.onStop("stop-signal-test-closed", closed::incrementAndGet).close();
        try {
            StopSignal.containerStopping();
            StopSignal.containerStopping(); // a second notice (or the JVM hook later) runs nothing again
            assertEquals(1, live.get());
            assertEquals(0, closed.get());
        } finally {
            kept.close();
        }
    }
}
