package org.switchboard.synapse;

import java.util.concurrent.CompletableFuture;

/** The transport side of one socket, as the rules see it (a WebSocket session in the container, a fake in tests). */
public interface Peer {

    /** Connection-unique id. */
    String id();

    /** Remote host used for per-host caps and the open-hub quota principal. */
    String remoteHost();

    /** Queues one text frame in order; completes true once written, false if the write failed or timed out. */
    CompletableFuture<Boolean> send(String text);

    /**
     * As {@link #send}, but the write may wait briefly so that frames queued for this socket meanwhile
     * leave in the same write (broadcasts: many sockets, each written once per batch instead of once per
     * frame). Order with {@link #send} is kept. The same {@code frame} goes to every socket of a broadcast,
     * so its UTF-8 is encoded once for all of them. By default the same as {@link #send}.
     */
    default CompletableFuture<Boolean> sendCoalesced(SharedText frame) {
        return send(frame.text());
    }

    /** Closes the socket with a WebSocket close code and reason. */
    void close(int code, String reason);

    /** True until the socket closes. */
    boolean isOpen();
}
