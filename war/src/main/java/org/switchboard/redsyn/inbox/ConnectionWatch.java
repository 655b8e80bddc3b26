package org.switchboard.redsyn.inbox;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Notices, the moment it happens, that the client of a parked long poll closed or reset its
 * connection. The container does not: Grizzly stops reading a connection while its request is
 * suspended (so a closed one sits in CLOSE-WAIT until the response is written), and neither a JAX-RS
 * ConnectionCallback nor a Servlet AsyncListener hears of it before a write fails. So each parked
 * poll's channel is also registered for reads on a selector of our own: an HTTP/1.1 client waiting for
 * its answer sends nothing, so a readable channel means end of stream or reset. Nothing is ever read,
 * so a client that does send something (a pipelined request) loses nothing; its poll is answered early.
 */
public final class ConnectionWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ConnectionWatch.class.getName());
    /** Select timeout: also bounds how long a channel closed by someone else waits for its key to be deregistered. */
    private static final long SELECT_MILLIS = 500;

    private final Selector watch;
    private final Selector probe;
    private final Executor callbacks;
    private final Queue<PollConnection> pending = new ConcurrentLinkedQueue<>();
    private volatile boolean open = true;
    /** Probes made so far ({@link #readable}); each costs a few syscalls under this watch's lock. */
    private final java.util.concurrent.atomic.LongAdder probes = new java.util.concurrent.atomic.LongAdder();

    /** Starts the watch loop on a thread of {@code threads}; {@code callbacks} runs what a closed connection triggers. */
    public ConnectionWatch(ThreadFactory threads, Executor callbacks) throws IOException {
        this.watch = Selector.open();
        this.probe = Selector.open();
        this.callbacks = callbacks;
        threads.newThread(this::run).start();
    }

    /** The poll connection of a channel ({@link PollConnection#UNKNOWN} for none). */
    PollConnection connection(SocketChannel channel) {
        return channel == null || !open ? PollConnection.UNKNOWN : new PollConnection(channel, this);
    }

    void add(PollConnection c) {
        pending.add(c);
        watch.wakeup();
    }

    void remove(PollConnection c) {
        SelectionKey k = c.key;
        if (k != null) {
            k.cancel();
            watch.wakeup(); // deregisters it now: a channel registered anywhere is not really closed
        }
    }

    /**
     * True when the channel has something to read right now, which for an HTTP/1.1 client waiting for
     * its answer means it closed or reset the connection. Reads nothing.
     */
    synchronized boolean readable(SocketChannel channel) {
        if (!open) {
            return false;
        }
        probes.increment();
        try {
            SelectionKey key = channel.register(probe, SelectionKey.OP_READ);
            try {
                return probe.selectNow() > 0 && key.isReadable();
            } finally {
                key.cancel();
                probe.selectNow(); // deregisters the key before the next probe registers the channel again
                probe.selectedKeys().clear();
            }
        } catch (ClosedChannelException e) {
            return true;
        } catch (IOException | IllegalBlockingModeException | CancelledKeyException | ClosedSelectorException e) {
            return false; // unknown: taken for alive, as without a watch
        }
    }

    /** How many liveness probes were made so far. */
    long probes() {
        return probes.sum();
    }

    private void run() {
        while (open) {
            try {
                if (watch.selectedKeys().isEmpty()) {
                    watch.select(SELECT_MILLIS);
                } else {
                    watch.selectNow(); // keys selected while registering wait in the set
                }
                for (SelectionKey k : watch.selectedKeys()) {
                    k.cancel();
                    PollConnection c = (PollConnection) k.attachment();
                    callbacks.execute(c::closedByClient);
                }
                watch.selectedKeys().clear();
                registerPending();
            } catch (ClosedSelectorException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "REDSYN long-poll connection watch: select failed; continuing", e);
            }
        }
    }

    private void registerPending() throws IOException {
        for (PollConnection c = pending.poll(); c != null; c = pending.poll()) {
            if (!c.watching()) {
                continue;
            }
            SelectionKey key;
            try {
                key = register(c);
            } catch (ClosedChannelException e) {
                callbacks.execute(c::closedByClient);
                continue;
            } catch (IllegalBlockingModeException e) {
                continue; // not a channel we can watch; the poll ends with its wait
            }
            c.key = key;
            if (!c.watching()) {
                key.cancel(); // unwatched meanwhile
            }
        }
    }

    private SelectionKey register(PollConnection c) throws IOException {
        try {
            return c.channel.register(watch, SelectionKey.OP_READ, c);
        } catch (CancelledKeyException e) {
            // the key of the previous poll on this keep-alive connection is cancelled but not yet deregistered
            watch.selectNow();
            return c.channel.register(watch, SelectionKey.OP_READ, c);
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            watch.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing the watch selector", e);
        }
        synchronized (this) {
            try {
                probe.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing the probe selector", e);
            }
        }
    }
}
