package org.switchboard.redsyn.inbox;

import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The connection of one long poll, as far as its liveness goes: gone once its client closed or reset
 * it. Watched by a {@link ConnectionWatch} while the poll is parked, and probed just before a lease
 * is handed to it.
 */
final class PollConnection {

    /** A connection the container gives no access to: never known to be gone (its poll ends with its wait). */
    static final PollConnection UNKNOWN = new PollConnection(null, null);

    final SocketChannel channel;
    private final ConnectionWatch watch;
    /** This connection's key on the watch selector, once registered (set by the watch loop). */
    volatile SelectionKey key;
    private volatile boolean gone;
    private volatile boolean watching;
    private volatile Runnable onGone;

    PollConnection(SocketChannel channel, ConnectionWatch watch) {
        this.channel = channel;
        this.watch = watch;
    }

    /** True when the client is known to be gone; looks at the socket itself, so it is current. */
    boolean gone() {
        if (channel == null) {
            return false;
        }
        if (!gone && (!channel.isOpen() || watch.readable(channel))) {
            gone = true;
        }
        return gone;
    }

    /** Runs {@code onGone} (once, on the watch's callback executor) when the client goes away while watched. */
    void watch(Runnable onGone) {
        if (channel == null) {
            return;
        }
        this.onGone = onGone;
        watching = true;
        watch.add(this);
    }

    /** Stops watching (the poll was answered). */
    void unwatch() {
        if (channel == null) {
            return;
        }
        watching = false;
        watch.remove(this);
    }

    boolean watching() {
        return watching;
    }

    /** The watch saw the client close or reset the connection. */
    void closedByClient() {
        gone = true;
        Runnable r = onGone;
        if (watching && r != null) {
            watching = false;
            r.run();
        }
    }
}
