package org.switchboard.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
