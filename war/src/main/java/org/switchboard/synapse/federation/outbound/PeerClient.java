package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.util.function.Predicate;

/**
 * One exchange with a peer hub (synapse-advanced §4.3): fresh connection, register, one forward, one
 * answer, close; or, for a peer that offers it, one forward on a reused connection (ours).
 */
public interface PeerClient {

    /** How long the origin waits for the peer's answer. */
    long ANSWER_TIMEOUT_MILLIS = 10_000;

    /**
     * Sends {@code registration} then {@code forward} and returns the first frame that answers it: a
     * {@code multihub_message_result} naming {@code forwardId}, or an {@code error}. Throws on a
     * transport failure, a failed pin check or no answer within {@link #ANSWER_TIMEOUT_MILLIS}.
     */
    JsonObject exchange(MessagePeers.Peer peer, JsonObject registration, JsonObject forward, String forwardId)
            throws IOException;

    /** Connections opened to peers for forwards, and forwards sent on a reused connection, since start (for /metrics). */
    record ConnectionStats(long opened, long reusedForwards) {
    }

    /** This client's connection counts (none for a client that keeps none). */
    default ConnectionStats connectionStats() {
        return new ConnectionStats(0, 0);
    }

    /** Closes reused connections that have been idle a while (ours: the outbox's 1 s loop calls it). */
    default void closeIdle() {
    }

    /** Closes every reused connection (the hub stops). */
    default void close() {
    }

    /**
     * The same one-exchange lifecycle for another hub-to-hub request (e.g. §5's
     * {@code attachment_peer_request}): sends {@code registration} then {@code request} and returns the
     * first frame {@code answer} accepts. Throws as {@link #exchange} does.
     */
    default JsonObject request(MessagePeers.Peer peer, JsonObject registration, JsonObject request,
                               Predicate<JsonObject> answer) throws IOException {
        throw new IOException("this peer client makes forwards only");
    }
}
