package org.switchboard.synapse.session;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.switchboard.synapse.Connection;

/** What other features do when a name binds (§5 steps 13–15, §8.1), kept out of the session package. */
public interface RegistrationHooks {

    /** Flushes the name's pending receipt notifications (before presence). */
    CompletableFuture<Void> flushOutbox(Connection connection);

    /** Clears the dead-letter entry keyed by the name. */
    void clearDeadLetter(String name);

    /**
     * True when this registering socket is a proven peer hub (synapse-advanced §4.3, §4.5 step 1): it
     * takes its name without entering the registry, so a peer may hold several one-forward sockets at
     * once, and it is no agent (no presence, roster, receipts or mailbox). Called once the
     * registration's declarations (protocol version) are applied.
     */
    default boolean peerHub(Connection connection, String sender) {
        return false;
    }

    /** Just before the registration frame binds its name (a refused bind closes the socket). */
    default void beforeBind(Connection connection, JsonObject registration) {
    }

    /**
     * Delivery-session binding (synapse-advanced §2.2) for the socket's first frame or any frame that
     * carried the delivery fields ({@code deliveryFrame}: the frame as sent, else null). False when
     * the connection was refused and is closing.
     */
    default boolean bindDelivery(Connection connection, String type, boolean firstFrame, JsonObject deliveryFrame) {
        return true;
    }

    /** Mailbox replay requested by the registration frame: called once the name is bound, the step runs after presence. */
    Supplier<CompletableFuture<Void>> replayMailbox(Connection connection, JsonObject registration);

    /** No hooks (tests of the session rules alone). */
    RegistrationHooks NONE = new RegistrationHooks() {
        @Override
        public CompletableFuture<Void> flushOutbox(Connection connection) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void clearDeadLetter(String name) {
        }

        @Override
        public Supplier<CompletableFuture<Void>> replayMailbox(Connection connection, JsonObject registration) {
            return () -> CompletableFuture.completedFuture(null);
        }
    };
}
