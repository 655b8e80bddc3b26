package org.switchboard.synapse.pipeline;

import jakarta.json.JsonObject;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.VerbHandler;

/**
 * One inbound frame on its way through the {@link FramePipeline}: what each step has learnt so far
 * (the decoded object, the routing strings as sent and as normalised, whether this frame bound the
 * socket's name, the handler found for its type). Lives for one frame on one thread.
 */
public final class FrameInFlight {

    final Connection connection;
    final String text;
    JsonObject frame;
    /** The routing strings as sent (null: absent or not a string). */
    String rawSender;
    String rawTarget;
    String rawType;
    /** Normalised routing: trimmed sender, target defaulted to {@code all}, type lower-cased and de-aliased. */
    String sender;
    String target;
    String type;
    /** The frame as sent when it carried delivery-registration fields (only the delivery binding reads it). */
    JsonObject deliveryFrame;
    /** True while the socket has no name yet: the first-frame steps apply. */
    boolean registering;
    boolean firstBind;
    /** The name resolution moved the name here from another socket. */
    boolean tookOver;
    VerbHandler handler;

    /** A frame of {@code text} received on {@code connection}. */
    public FrameInFlight(Connection connection, String text) {
        this.connection = connection;
        this.text = text;
    }

    /** The socket the frame came on. */
    public Connection connection() {
        return connection;
    }

    /** The decoded frame (null before the decode step); steps may replace it with a rewritten copy. */
    public JsonObject frame() {
        return frame;
    }

    /** Replaces the frame with a rewritten copy (e.g. without {@code token}). */
    public void frame(JsonObject rewritten) {
        this.frame = rewritten;
    }

    /** The normalised sender as sent (empty when absent); after the bind, see {@link Connection#name()}. */
    public String sender() {
        return sender;
    }

    /** The normalised type (the dispatch key). */
    public String type() {
        return type;
    }

    /** The normalised target. */
    public String target() {
        return target;
    }

    /** True when this frame bound the socket's name. */
    public boolean firstBind() {
        return firstBind;
    }

    /** The handler of {@link #type()} once looked up (null before). */
    public VerbHandler handler() {
        return handler;
    }
}
