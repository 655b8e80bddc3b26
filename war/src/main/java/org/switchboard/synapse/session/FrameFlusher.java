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
        // a broadcast's one text reaches many sockets of a pass: encoded once for them, copied into each write
        TextFrames.Payloads payloads = new TextFrames.Payloads();
        WebSocketPeer peer;
        while ((peer = waiting.poll()) != null) {
            peer.flush(payloads);
        }
    }
}
