package org.switchboard.container;

import java.nio.ByteBuffer;
import java.util.concurrent.Future;

/** Writes already-framed WebSocket bytes straight to one socket (see {@link ContainerShortcuts#rawFrames}). */
public interface RawFrameWriter {

    /**
     * Queues {@code frames} (complete frames, in order); the future completes when the socket took them,
     * and from then on the writer no longer reads {@code frames}, so the caller may reuse its array.
     */
    Future<?> send(ByteBuffer frames);
}
