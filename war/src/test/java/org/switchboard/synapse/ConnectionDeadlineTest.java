package org.switchboard.synapse;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A socket's registration deadline stops holding it once the socket is closing, whichever comes first. */
class ConnectionDeadlineTest {

    @Test
    void closingCancelsTheWaitingDeadline() {
        Connection connection = new Connection(new FakePeer(), 0);
        CompletableFuture<Void> deadline = new CompletableFuture<>();
        connection.registrationDeadline(deadline);
        assertFalse(deadline.isCancelled(), "an open socket keeps its deadline");

        connection.markClosing();

        assertTrue(deadline.isCancelled());
    }

    @Test
    void aDeadlineSetAfterTheSocketStartedClosingIsCancelledAtOnce() {
        Connection connection = new Connection(new FakePeer(), 0);
        connection.markClosing(); // closed between the open and the deadline's scheduling
        CompletableFuture<Void> deadline = new CompletableFuture<>();

        connection.registrationDeadline(deadline);

        assertTrue(deadline.isCancelled());
    }
}
