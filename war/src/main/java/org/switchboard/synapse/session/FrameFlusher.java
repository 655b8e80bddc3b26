package org.switchboard.synapse.session;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes the sockets that have coalescible frames queued ({@link WebSocketPeer#sendCoalesced}) on one
 * executor, one socket after another. A socket waiting here is listed once however many frames reach it
 * meanwhile, so under load (a connection storm's presence updates, many broadcasts) each of its writes
 * carries every frame queued since the last, instead of one container write per frame; when the hub is
 * idle the write follows at once on the executor's thread.
 */
public final class FrameFlusher {

    private final Executor executor;
    private final ConcurrentLinkedQueue<WebSocketPeer> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable pass = this::pass;
    /** The passes' UTF-8 counts and write array (only the pass's thread uses it). */
    private final TextFrames.Payloads payloads = new TextFrames.Payloads();
    /** The byte counts as of the last pass, for {@code /metrics} (read off the pass's thread). */
    private volatile long encodedBytes;
    private volatile long reusedBytes;
    private volatile long writes;
    private volatile long frames;

    /** Flushes on {@code executor} (the hub's own timer thread in the server). */
    public FrameFlusher(Executor executor) {
        this.executor = executor;
    }

    /** Lists {@code peer} (once per flush, the peer sees to that) and starts a pass unless one is due. */
    void schedule(WebSocketPeer peer) {
        waiting.add(peer);
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(pass);
            } catch (RejectedExecutionException stopping) {
                pass(); // the hub is stopping: write now rather than drop
            }
        }
    }

    /** Sockets listed and not yet written (for tests). */
    int listed() {
        return waiting.size();
    }

    /** Writes every listed socket; one listed during the pass is written by it or by the next one. */
    private void pass() {
        scheduled.set(false);
        // one pass at a time owns the counts (the server's executor has one thread; a stopping hub writes inline)
        synchronized (payloads) {
            WebSocketPeer peer;
            while ((peer = waiting.poll()) != null) {
                peer.flush(payloads);
            }
            encodedBytes = payloads.encodedBytes();
            reusedBytes = payloads.reusedBytes();
            writes = payloads.writes();
            frames = payloads.frames();
        }
    }

    /** Write arrays the passes allocated (for tests). */
    long arrays() {
        synchronized (payloads) {
            return payloads.arrays();
        }
    }

    /** UTF-8 bytes the passes encoded so far. */
    public long encodedBytes() {
        return encodedBytes;
    }

    /** Socket writes the passes made. */
    public long writes() {
        return writes;
    }

    /** Frames those writes carried (several per write when a socket had several waiting). */
    public long frames() {
        return frames;
    }

    /** UTF-8 bytes the passes reused (a broadcast's text already encoded for another socket). */
    public long reusedBytes() {
        return reusedBytes;
    }
}
