package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Reused, registered connections to peer hubs that take many forwards on one connection (ours, issue
 * 18 speed; synapse-advanced §4.3 opens one connection per forward). A peer says it does by
 * {@value #REUSE_FIELD} on its results; until one of its answers said so, and whenever an answer on a
 * reused connection cannot be tied to one forward (a plain {@code error}, a close), the caller goes back
 * to the one-forward connection, whose answers keep §4.6's outcomes exact.
 */
final class PeerSessionPool {

    /** The field of a {@code multihub_message_result} by which a peer offers reuse (ours). */
    static final String REUSE_FIELD = "connection_reuse";
    /** Most open connections to one peer. */
    static final int MAX_SESSIONS = 4;
    /** Forwards waiting on the least busy connection before another one opens (while under the cap). */
    static final int SPREAD_ABOVE = 8;
    /** A connection with nothing in flight for this long is closed. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(15);

    /** One open connection's outbound side. */
    interface Link {
        /** Sends one text frame; the stage fails when the connection cannot take it. */
        CompletableFuture<?> send(String text);

        /** Closes the connection (idempotent). */
        void close();
    }

    /** Where a connection's frames go. */
    interface Inbound {
        /** A text frame the peer sent, parsed (null: not a JSON object). */
        void frame(JsonObject frame);

        /** The connection ended (closed by either side, or failed). */
        void closed();
    }

    /** Opens a connection to a peer, sends {@code registration} on it and routes its frames to {@code inbound}. */
    interface Dialer {
        Link dial(MessagePeers.Peer peer, String registration, Inbound inbound, long deadlineNanos) throws IOException;
    }

    /** The answer on a reused connection could not be tied to this forward: retry it on a connection of its own. */
    static final class Unattributable extends IOException {
        Unattributable(String why) {
            super(why);
        }
    }

    private final Dialer dialer;
    private final LongSupplier clock;
    private final Map<String, Boolean> offered = new ConcurrentHashMap<>();
    private final Map<String, Peer> peers = new ConcurrentHashMap<>();

    /** A pool dialing through {@code dialer}; {@code clock} is {@link System#nanoTime}'s kind. */
    PeerSessionPool(Dialer dialer, LongSupplier clock) {
        this.dialer = dialer;
        this.clock = clock;
    }

    /** True when {@code peer}'s latest answer offered reuse. */
    boolean reusable(MessagePeers.Peer peer) {
        return offered.containsKey(key(peer));
    }

    /** Records what {@code answer} (a frame from {@code peer} on any connection) says about reuse. */
    void learn(MessagePeers.Peer peer, JsonObject answer) {
        if (answer != null && ForwardFrames.RESULT.equals(text(answer, "type"))) {
            if (answer.get(REUSE_FIELD) == JsonValue.TRUE) {
                offered.put(key(peer), Boolean.TRUE);
            } else {
                offered.remove(key(peer));
            }
        }
    }

    /** Stops reusing connections to {@code peer} until one of its answers offers it again; closes the open ones. */
    void forget(MessagePeers.Peer peer) {
        offered.remove(key(peer));
        Peer p = peers.get(key(peer));
        if (p != null) {
            p.closeAll();
        }
    }

    /**
     * Sends {@code forward} on an open connection to {@code peer} (opening one, registered with
     * {@code registration}, when none is free) and waits until {@code deadlineNanos} for the result
     * naming {@code forwardId}. Throws {@link Unattributable} when the connection answered with a plain
     * error or ended first; another {@link IOException} when no connection opened or no answer came.
     */
    JsonObject exchange(MessagePeers.Peer peer, String registration, String forward, String forwardId, long deadlineNanos)
            throws IOException {
        Session session = peers.computeIfAbsent(key(peer), k -> new Peer()).pick(peer, registration, deadlineNanos);
        CompletableFuture<JsonObject> answer = session.expect(forwardId);
        try {
            Link open = await(session, session.link, deadlineNanos); // a failed dial: the peer is unreachable
            try {
                open.send(forward).get(remaining(deadlineNanos), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                session.end(new Unattributable("the connection failed"));
                throw new Unattributable("the connection failed: " + e.getCause().getClass().getSimpleName());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            return await(session, answer, deadlineNanos);
        } catch (TimeoutException e) {
            throw new IOException("no answer within the deadline");
        } finally {
            session.done(forwardId);
        }
    }

    private <T> T await(Session session, CompletableFuture<T> stage, long deadlineNanos) throws IOException, TimeoutException {
        try {
            return stage.get(remaining(deadlineNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // a stuck connection takes no more; the others waiting on it try a connection of their own
            session.end(new Unattributable("another forward timed out on this connection"));
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("connection failed: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** Closes connections idle for {@link #IDLE_NANOS}; called every second or so. */
    void closeIdle() {
        long now = clock.getAsLong();
        peers.values().forEach(p -> p.closeIdle(now));
    }

    /** Closes every connection (the hub stops). */
    void closeAll() {
        peers.values().forEach(Peer::closeAll);
    }

    /** Open connections to {@code peer} (for tests and /health-style reports). */
    int open(MessagePeers.Peer peer) {
        Peer p = peers.get(key(peer));
        return p == null ? 0 : p.openCount();
    }

    private static String key(MessagePeers.Peer peer) {
        return peer.id() + " " + peer.uri();
    }

    private long remaining(long deadlineNanos) {
        return Math.max(1, deadlineNanos - clock.getAsLong());
    }

    private static String text(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : null;
    }

    /** The connections to one peer. */
    private final class Peer {
        private final List<Session> sessions = new ArrayList<>();
        private int opening;

        /**
         * The least busy connection; a new one (dialed by this caller, its link ready when registered)
         * when that one has {@link #SPREAD_ABOVE} forwards waiting and the peer has fewer than
         * {@link #MAX_SESSIONS}. Callers that pick a connection still opening wait for it.
         */
        Session pick(MessagePeers.Peer peer, String registration, long deadlineNanos) {
            Session fresh;
            synchronized (this) {
                sessions.removeIf(s -> s.dead);
                Session least = null;
                for (Session s : sessions) {
                    if (least == null || s.busy() < least.busy()) {
                        least = s;
                    }
                }
                if (least != null && (least.busy() < SPREAD_ABOVE || sessions.size() >= MAX_SESSIONS)) {
                    least.touch();
                    return least;
                }
                fresh = new Session();
                fresh.touch();
                sessions.add(fresh);
            }
            try {
                fresh.opened(dialer.dial(peer, registration, fresh, deadlineNanos));
            } catch (IOException | RuntimeException e) {
                fresh.end(e instanceof IOException io ? io : new IOException("connection failed: " + e.getClass().getSimpleName()));
            }
            return fresh;
        }

        void closeIdle(long now) {
            List<Session> idle = new ArrayList<>();
            synchronized (this) {
                for (Session s : sessions) {
                    if (s.busy() == 0 && now - s.lastUsed > IDLE_NANOS) {
                        idle.add(s);
                    }
                }
                sessions.removeAll(idle);
            }
            idle.forEach(s -> s.end(new IOException("idle")));
        }

        void closeAll() {
            List<Session> all;
            synchronized (this) {
                all = new ArrayList<>(sessions);
                sessions.clear();
            }
            all.forEach(s -> s.end(new Unattributable("connection closed by this hub")));
        }

        synchronized int openCount() {
            sessions.removeIf(s -> s.dead);
            return sessions.size();
        }
    }

    /** One reused connection and the forwards waiting for their results on it. */
    private final class Session implements Inbound {
        private final Map<String, CompletableFuture<JsonObject>> waiting = new ConcurrentHashMap<>();
        private final CompletableFuture<Link> link = new CompletableFuture<>();
        private volatile boolean dead;
        private volatile IOException cause;
        private volatile long lastUsed;

        int busy() {
            return waiting.size();
        }

        void opened(Link open) {
            link.complete(open);
            if (dead) {
                open.close(); // ended while it opened
            }
        }

        void touch() {
            lastUsed = clock.getAsLong();
        }

        CompletableFuture<JsonObject> expect(String forwardId) {
            CompletableFuture<JsonObject> answer = new CompletableFuture<>();
            waiting.put(forwardId, answer);
            if (dead) { // ended between the pick and now: nothing will answer on it
                waiting.remove(forwardId);
                answer.completeExceptionally(cause);
            }
            return answer;
        }

        void done(String forwardId) {
            waiting.remove(forwardId);
            touch();
        }

        @Override
        public void frame(JsonObject frame) {
            if (frame == null) {
                return;
            }
            String type = text(frame, "type");
            if (ForwardFrames.RESULT.equals(type)) {
                String id = text(frame, "forward_id");
                CompletableFuture<JsonObject> answer = id == null ? null : waiting.remove(id);
                if (answer != null) {
                    answer.complete(frame);
                }
            } else if ("error".equals(type)) {
                // a plain error names no forward: every forward waiting here must learn its fate alone
                end(new Unattributable("the peer answered with an error"));
            }
        }

        @Override
        public void closed() {
            end(new Unattributable("the peer closed the connection"));
        }

        void end(IOException why) {
            if (!dead) {
                cause = why;
                dead = true;
            }
            link.completeExceptionally(cause);
            for (String id : List.copyOf(waiting.keySet())) {
                CompletableFuture<JsonObject> answer = waiting.remove(id);
                if (answer != null) {
                    answer.completeExceptionally(cause);
                }
            }
            Link open = link.isDone() && !link.isCompletedExceptionally() ? link.join() : null;
            if (open != null) {
                open.close();
            }
        }
    }
}
