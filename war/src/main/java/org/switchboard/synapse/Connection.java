package org.switchboard.synapse;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.logging.Level;

/**
 * Per-socket SYNAPSE state: the bound name, roles, wake capability, negotiated version and quota
 * principal, plus an ordering chain so that effects published after a journal commit leave in the
 * order the frames arrived.
 */
public final class Connection {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Connection.class.getName());

    private final Peer peer;
    private final double openedAt;
    private volatile String name;
    private volatile boolean firstFrameHandled;
    private volatile boolean superseded;
    private volatile boolean closing;
    /** The registration deadline's timer task while it waits; it holds this connection (and its socket) until it runs. */
    private volatile Future<?> registrationDeadline;
    private volatile List<String> roles = List.of();
    private volatile String wakeCapability;
    private volatile int protocolVersion = 2;
    private volatile String quotaPrincipal;
    /** Set once at open: the socket came over TLS (wss://). */
    private volatile boolean tls;
    /** Set once at open: {@code sha256:<hex>} of the client certificate presented in the TLS handshake, or null. */
    private volatile String clientCertificatePin;
    private volatile long lastPongNanos = System.nanoTime();
    private volatile long lastPingNanos;
    private CompletableFuture<Void> ordering = CompletableFuture.completedFuture(null);

    /** A fresh, unbound connection. */
    public Connection(Peer peer, double openedAt) {
        this.peer = peer;
        this.openedAt = openedAt;
        this.quotaPrincipal = "open-host:" + peer.remoteHost();
    }

    public Peer peer() {
        return peer;
    }

    /** True when the socket came over TLS ({@code wss://}). */
    public boolean tls() {
        return tls;
    }

    /**
     * The transport facts a peer hub's proof rests on (synapse-advanced §4.2), set by the endpoint at
     * open: whether the socket is TLS, and the pin of the client certificate it presented (null: none).
     */
    public void transport(boolean overTls, String certificatePin) {
        tls = overTls;
        clientCertificatePin = certificatePin;
    }

    /** {@code sha256:<hex>} of the client certificate presented on this socket's TLS handshake, or null. */
    public String clientCertificatePin() {
        return clientCertificatePin;
    }

    public String id() {
        return peer.id();
    }

    public double openedAt() {
        return openedAt;
    }

    /** The bound name, or null before registration. */
    public String name() {
        return name;
    }

    public void name(String value) {
        name = value;
    }

    public boolean isBound() {
        return name != null;
    }

    public boolean firstFrameHandled() {
        return firstFrameHandled;
    }

    public void firstFrameHandled(boolean value) {
        firstFrameHandled = value;
    }

    /** True once an accepted takeover moved this socket's name to a newer socket. */
    public boolean superseded() {
        return superseded;
    }

    public void superseded(boolean value) {
        superseded = value;
    }

    /** True once the hub decided to close this socket (no more frames are processed). */
    public boolean closing() {
        return closing;
    }

    public void markClosing() {
        closing = true;
        Future<?> deadline = registrationDeadline;
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    /**
     * The timer task that closes this socket if it has not registered in time. Cancelled once the socket
     * is closing, so a closed socket is not kept until its deadline (with a long {@code hub.auth-timeout-seconds}
     * every connection ever opened stayed in the heap, container request and all).
     */
    public void registrationDeadline(Future<?> deadline) {
        registrationDeadline = deadline;
        if (closing) {
            deadline.cancel(false);
        }
    }

    public List<String> roles() {
        return roles;
    }

    public void roles(List<String> value) {
        roles = value == null ? List.of() : value;
    }

    /** Declared wake capability, or null when unknown. */
    public String wakeCapability() {
        return wakeCapability;
    }

    public void wakeCapability(String value) {
        wakeCapability = value;
    }

    /** The client's registration protocol_version (2 when absent). */
    public int protocolVersion() {
        return protocolVersion;
    }

    public void protocolVersion(int value) {
        protocolVersion = value;
    }

    public String quotaPrincipal() {
        return quotaPrincipal;
    }

    public void quotaPrincipal(String value) {
        quotaPrincipal = value;
    }

    public long lastPongNanos() {
        return lastPongNanos;
    }

    public void pongReceived() {
        lastPongNanos = System.nanoTime();
    }

    public long lastPingNanos() {
        return lastPingNanos;
    }

    public void pingSent() {
        lastPingNanos = System.nanoTime();
    }

    /** Sends one encoded frame to this socket. */
    public CompletableFuture<Boolean> send(String text) {
        return peer.send(text);
    }

    /** Sends one encoded frame that may wait to leave with this socket's next frames ({@link Peer#sendCoalesced}). */
    public CompletableFuture<Boolean> sendCoalesced(SharedText frame) {
        return peer.sendCoalesced(frame);
    }

    /** Closes the socket; processing of further frames stops. */
    public void close(int code, String reason) {
        closing = true;
        peer.close(code, reason);
    }

    /**
     * Runs {@code publish} with the result of {@code stage} after every effect queued earlier on this
     * connection has run, so a sender's frames fan out in arrival order even though journal commits
     * complete asynchronously.
     */
    public synchronized <T> CompletableFuture<Void> inOrder(CompletionStage<T> stage, Consumer<T> publish) {
        CompletableFuture<Void> next = ordering.thenCompose(ignored -> stage).thenAccept(publish);
        ordering = next.exceptionally(error -> {
            LOG.log(Level.WARNING, "publish step failed on " + org.switchboard.logging.LogSafe.text(this), org.switchboard.logging.LogSafe.failure(error));
            return null;
        });
        return next;
    }

    /** Runs an asynchronous step after every effect queued earlier on this connection (and waits for it). */
    public synchronized CompletableFuture<Void> inOrder(java.util.function.Supplier<CompletableFuture<Void>> step) {
        CompletableFuture<Void> next = ordering.thenCompose(ignored -> step.get());
        ordering = next.exceptionally(error -> {
            LOG.log(Level.WARNING, "asynchronous step failed on " + org.switchboard.logging.LogSafe.text(this), org.switchboard.logging.LogSafe.failure(error));
            return null;
        });
        return next;
    }

    @Override
    public String toString() {
        return "Connection[" + id() + (name == null ? "" : " " + name) + "]";
    }
}
