package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import java.io.IOException;

/** One exchange with a peer hub (synapse-advanced §4.3): fresh connection, register, one forward, one answer, close. */
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
}
