package org.switchboard.synapse.session;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.container.PortableShortcuts;
import org.switchboard.container.RawFrameWriter;
import org.switchboard.journal.CompletionBatch;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.wire.CloseCodes;
import org.switchboard.synapse.Peer;
import org.switchboard.synapse.SharedText;

/**
 * A {@link Peer} over a JSR-356 session: an ordered, asynchronous outbound queue with one write in
 * flight, so no caller ever blocks on a slow socket; a write not drained within 5 s closes the
 * socket with 1013 (§6.4), and so does a reader that lets more than {@code hub.outbound-max-bytes} of
 * frames pile up ({@link OutboundBound}). Where the container offers raw frame writes ({@link ContainerShortcuts#rawFrames})
 * the frames queued behind a write go out together as one raw write; elsewhere each goes through the standard async send.
 */
public final class WebSocketPeer implements Peer {

    private static final Logger LOG = Logger.getLogger(WebSocketPeer.class.getName());
    private static final AtomicLong IDS = new AtomicLong();
    /** Outbound drain deadline. */
    public static final long DRAIN_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** A queued frame: its text, the broadcast it belongs to (null: this socket's own), who waits for its write. */
    private record Outbound(String text, SharedText shared, CompletableFuture<Boolean> written) {
        long size() {
            return text.length();
        }

        byte[] utf8(TextFrames.Payloads counts) {
            if (shared != null) {
                return counts == null ? shared.utf8() : counts.utf8(shared);
            }
            return counts == null ? text.getBytes(StandardCharsets.UTF_8) : counts.utf8(text);
        }
    }

    /** The outbound bound of peers built without one ({@code hub.outbound-max-bytes}, set at hub start). */
    private static volatile long defaultOutboundMaxBytes = SynapseSettings.DEFAULT_OUTBOUND_MAX_BYTES;

    /** Most bytes of queued frames joined into one raw write. */
    static final int MAX_RAW_WRITE_BYTES = 64 * 1024;
    /** How often a raw write the socket has not taken yet is checked again. */
    private static final long RAW_RECHECK_MICROS = 500;

    /** Peers built without the container's shortcuts take the portable path. */
    private static final ContainerShortcuts PORTABLE = new PortableShortcuts("not given to this peer");

    private final Session session;
    private final String id;
    private final String remoteHost;
    private final ConcurrentLinkedQueue<Outbound> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    private final RawFrameWriter raw;
    private final ContainerShortcuts shortcuts;
    private final ScheduledExecutorService rechecks;
    private final OutboundBound bound;
    /** Where coalesced frames are written from; null: {@link #sendCoalesced} writes as {@link #send} does. */
    private final FrameFlusher flusher;
    /** Set while this peer waits in the flusher's list, so it is listed once however many frames come. */
    private final AtomicBoolean flushListed = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private volatile long writeStartedNanos;
    private volatile boolean closed;
    /** Set once a frame did not fit the outbound bound: nothing more is queued, and the socket closes with 1013. */
    private volatile boolean overflowed;

    /**
     * Wraps an open session on the portable path (no container shortcuts: the standard send API);
     * {@code rechecks} runs the close of a peer whose reader fell too far behind.
     */
    public WebSocketPeer(Session session, String remoteHost, ScheduledExecutorService rechecks) {
        this(session, remoteHost, rechecks, defaultOutboundMaxBytes);
    }

    /** As above, with at most {@code outboundMaxBytes} of frame text queued (see {@link OutboundBound}). */
    public WebSocketPeer(Session session, String remoteHost, ScheduledExecutorService rechecks, long outboundMaxBytes) {
        this(session, remoteHost, rechecks, outboundMaxBytes, PORTABLE, null);
    }

    /**
     * As above, sending through the container's {@code shortcuts} (raw frame writes, quiet context loader);
     * {@code rechecks} also polls a raw write that the socket could not take at once (a slow reader), since
     * Tyrus's raw send reports completion only through a plain future; null keeps the standard send API.
     */
    public WebSocketPeer(Session session, String remoteHost, ScheduledExecutorService rechecks, ContainerShortcuts shortcuts) {
        this(session, remoteHost, rechecks, defaultOutboundMaxBytes, shortcuts, null);
    }

    /** As above, with coalesced frames ({@link #sendCoalesced}) written by {@code flusher} (null: at once). */
    public WebSocketPeer(Session session, String remoteHost, ScheduledExecutorService rechecks, ContainerShortcuts shortcuts,
            FrameFlusher flusher) {
        this(session, remoteHost, rechecks, defaultOutboundMaxBytes, shortcuts, flusher);
    }

    private WebSocketPeer(Session session, String remoteHost, ScheduledExecutorService rechecks, long outboundMaxBytes,
            ContainerShortcuts shortcuts, FrameFlusher flusher) {
        this.flusher = flusher;
        this.bound = new OutboundBound(outboundMaxBytes);
        this.session = session;
        this.id = Long.toString(IDS.incrementAndGet());
        this.remoteHost = remoteHost;
        this.rechecks = rechecks;
        this.shortcuts = shortcuts;
        this.raw = rechecks == null ? null : shortcuts.rawFrames(session);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String remoteHost() {
        return remoteHost;
    }

    @Override
    public CompletableFuture<Boolean> send(String text) {
        CompletableFuture<Boolean> written = new CompletableFuture<>();
        // inside a group commit's completions, written once they all ran: many chats, one write
        if (enqueue(text, null, written) && !CompletionBatch.defer(this, drainTask)) {
            drain();
        }
        return written;
    }

    /**
     * Queues the frame and leaves its write to the flusher, which writes it with everything else this
     * socket has queued by then; without a flusher, the same as {@link #send}.
     */
    @Override
    public CompletableFuture<Boolean> sendCoalesced(SharedText frame) {
        if (flusher == null) {
            return send(frame.text());
        }
        CompletableFuture<Boolean> written = new CompletableFuture<>();
        if (enqueue(frame.text(), frame, written) && flushListed.compareAndSet(false, true)) {
            flusher.schedule(this);
        }
        return written;
    }

    /**
     * The flusher's turn: what is queued now leaves (a frame queued after this starts lists the peer again);
     * {@code payloads} counts the UTF-8 the writes encode and reuse.
     */
    void flush(TextFrames.Payloads payloads) {
        flushListed.set(false);
        drain(payloads);
    }

    /** Queues one frame; false (and {@code written} completed false) when the socket takes no more. */
    private boolean enqueue(String text, SharedText shared, CompletableFuture<Boolean> written) {
        if (closed || overflowed || !session.isOpen()) {
            written.complete(false);
            return false;
        }
        Outbound outbound = new Outbound(text, shared, written);
        if (!bound.admit(outbound.size())) {
            overflow();
            written.complete(false);
            return false;
        }
        queue.add(outbound);
        return true;
    }

    private void drain() {
        drain(null);
    }

    private void drain(TextFrames.Payloads payloads) {
        if (raw != null) {
            drainRaw(payloads);
            return;
        }
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            Outbound next = queue.poll();
            if (next == null) {
                writing.set(false);
                continue;
            }
            writeStartedNanos = System.nanoTime();
            ClassLoader context = shortcuts.quietContext();
            try {
                session.getAsyncRemote().sendText(next.text(), result -> {
                    finish(next, result.isOK());
                    writing.set(false);
                    if (result.isOK()) {
                        drain();
                    } else {
                        writeFailed();
                    }
                });
                return;
            } catch (RuntimeException e) {
                finish(next, false);
                writing.set(false);
                writeFailed();
                return;
            } finally {
                shortcuts.restoreContext(context);
            }
        }
    }

    /** Writes everything queued (up to {@link #MAX_RAW_WRITE_BYTES} at a time) as consecutive frames in one write. */
    private void drainRaw(TextFrames.Payloads payloads) {
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            List<Outbound> batch = new ArrayList<>();
            byte[][] utf8 = new byte[8][];
            long chars = 0; // a bound on the write's size, not its exact byte count
            Outbound next;
            while (chars < MAX_RAW_WRITE_BYTES && (next = queue.poll()) != null) {
                if (batch.size() == utf8.length) {
                    utf8 = Arrays.copyOf(utf8, utf8.length * 2);
                }
                utf8[batch.size()] = next.utf8(payloads);
                batch.add(next);
                chars += next.text().length();
            }
            if (batch.isEmpty()) {
                writing.set(false);
                continue;
            }
            if (payloads != null) {
                payloads.wrote(batch.size());
            }
            writeStartedNanos = System.nanoTime();
            // the flusher's pass lays its writes out in one array; other callers (any thread) take a fresh one
            ByteBuffer frames = payloads == null ? ByteBuffer.wrap(TextFrames.frames(utf8, batch.size()))
                    : payloads.frames(utf8, batch.size());
            Future<?> sent;
            try {
                sent = raw.send(frames);
            } catch (RuntimeException e) {
                if (payloads != null) {
                    payloads.keptByWriter(frames); // it may have queued them before failing
                }
                complete(batch, false);
                writing.set(false);
                writeFailed();
                return;
            }
            if (!sent.isDone()) {
                if (payloads != null) {
                    payloads.keptByWriter(frames);
                }
                rechecks.schedule(() -> awaitRaw(sent, batch), RAW_RECHECK_MICROS, TimeUnit.MICROSECONDS);
                return;
            }
            boolean ok = succeeded(sent);
            complete(batch, ok);
            writing.set(false);
            if (!ok) {
                writeFailed();
                return;
            }
        }
    }

    /** Finishes a raw write once the socket took it (or failed), then goes on draining. */
    private void awaitRaw(Future<?> sent, List<Outbound> batch) {
        if (!sent.isDone() && !closed && session.isOpen()) {
            try {
                rechecks.schedule(() -> awaitRaw(sent, batch), RAW_RECHECK_MICROS, TimeUnit.MICROSECONDS);
                return;
            } catch (RejectedExecutionException shuttingDown) {
                // fall through: fail the batch below
            }
        }
        boolean ok = sent.isDone() && succeeded(sent);
        complete(batch, ok);
        writing.set(false);
        if (ok) {
            drain();
        } else {
            writeFailed();
        }
    }

    /**
     * A write failed: the frames behind it would reach the client after a gap on a live connection, so
     * nothing more is written, what is queued is dropped, and the socket is closed with 1011 (off this
     * thread, which may be the container's write callback); the client's reconnect replays what it missed.
     * On a socket already closing (the usual case: the client went away) only the queue is dropped.
     */
    private void writeFailed() {
        if (!closed) {
            closed = true; // refuses frames from now on, before the close below runs
            if (session.isOpen()) {
                LOG.fine(() -> "SYNAPSE peer " + id + ": a write failed on an open socket; closing it with 1011");
                Runnable closeIt = () -> closeSession(CloseCodes.UNEXPECTED, CloseCodes.REASON_INTERNAL);
                try {
                    if (rechecks == null) {
                        closeIt.run();
                    } else {
                        rechecks.execute(closeIt);
                    }
                } catch (RejectedExecutionException shuttingDown) {
                    closeIt.run();
                }
            }
        }
        failQueued();
    }

    private static boolean succeeded(Future<?> sent) {
        try {
            sent.get();
            return true;
        } catch (ExecutionException | CancellationException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void complete(List<Outbound> batch, boolean ok) {
        for (Outbound outbound : batch) {
            finish(outbound, ok);
        }
    }

    /** A frame left the queue: written ({@code ok}) or dropped; its characters leave the bound. */
    private void finish(Outbound outbound, boolean ok) {
        bound.release(outbound.size());
        outbound.written().complete(ok);
    }

    private void failQueued() {
        Outbound pending;
        while ((pending = queue.poll()) != null) {
            finish(pending, false);
        }
    }

    /**
     * The reader fell {@code hub.outbound-max-bytes} behind: what is queued is dropped at once (the heap
     * it held is free) and the socket is closed with 1013 (§6.4) off the caller's thread, which never
     * waits for this socket.
     */
    private void overflow() {
        if (overflowed) {
            return;
        }
        overflowed = true;
        failQueued();
        LOG.fine(() -> "SYNAPSE peer " + id + ": outbound bound exceeded; closing with 1013");
        if (rechecks != null) {
            try {
                rechecks.execute(this::closeOverflowed);
                return;
            } catch (RejectedExecutionException shuttingDown) {
                // the drain check closes it
            }
        }
    }

    private void closeOverflowed() {
        if (!closed) {
            close(CloseCodes.TRY_AGAIN_LATER, CloseCodes.OUTBOUND_TIMEOUT);
        }
    }

    /** Characters of frame text queued or being written (for tests and metrics). */
    long queuedChars() {
        return bound.queued();
    }

    /** Sets the outbound bound of peers created from now on without an explicit one. */
    public static void defaultOutboundMaxBytes(long bytes) {
        defaultOutboundMaxBytes = bytes;
    }

    /** Closes the socket with 1013 if the write in flight has not drained within the deadline. */
    public void checkDrain(long nowNanos) {
        if (overflowed && !closed) {
            closeOverflowed();
            return;
        }
        if (writing.get() && nowNanos - writeStartedNanos > DRAIN_DEADLINE_NANOS && !closed) {
            close(CloseCodes.TRY_AGAIN_LATER, CloseCodes.OUTBOUND_TIMEOUT);
            failQueued();
        }
    }

    /** Sends a WebSocket ping (keepalive, §2.1). */
    public void ping() {
        try {
            session.getAsyncRemote().sendPing(ByteBuffer.allocate(0));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "ping failed", e);
        }
    }

    @Override
    public void close(int code, String reason) {
        closed = true;
        closeSession(code, reason);
    }

    private void closeSession(int code, String reason) {
        try {
            if (session.isOpen()) {
                session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(code), reason));
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "close failed", e);
        }
    }

    @Override
    public boolean isOpen() {
        return !closed && session.isOpen();
    }

    /** Marks the peer closed and fails queued writes (after the container reported the close). */
    public void closedByTransport() {
        closed = true;
        failQueued();
    }
}
