package org.switchboard.container;

/**
 * The container shortcuts of {@link ContainerShortcuts}, each named as {@code /metrics} and the start-up
 * line report it ({@code switchboard_container_shortcut_active{name="…"}}).
 */
public enum Shortcut {
    /** A plain timer in place of each Tyrus session's managed one, dropping Tyrus's no-op idle-timeout task. */
    IDLE_TIMER("idle-timer-bypass"),
    /** Queued SYNAPSE frames written in one raw Tyrus write instead of one standard send each. */
    RAW_FRAMES("raw-frame-writes"),
    /** Grizzly's per-connection output buffer sized on a WebSocket upgrade ({@code hub.websocket-write-buffer-bytes}). */
    WRITE_BUFFER("write-buffer-size"),
    /** An empty context class loader around container sends and between frames (Payara's context capture scans it). */
    QUIET_CONTEXT("quiet-context-loader"),
    /** The socket's remote address from Tyrus's session (the standard API does not give it). */
    REMOTE_ADDRESS("remote-address"),
    /** The NIO channel under a REDSYN long poll, watched so a poll whose client left is released at once. */
    POLL_CHANNEL("long-poll-channel"),
    /** The WebSocket upgrade's input read through the hub's frame-size gate before Tyrus buffers a frame. */
    FRAME_GATE("upgrade-frame-gate"),
    /**
     * The frame gate's upgrade handler installed on Catalina's request directly, instead of the container
     * creating it as a CDI managed object (a new injection target built and validated for every socket).
     */
    DIRECT_UPGRADE("upgrade-handler-direct"),
    /**
     * The server's own stop announcement (Payara's prepare-shutdown event) relayed to the application's
     * stop actions: {@code stop-domain} sends the JVM no signal until the server's services are down.
     */
    STOP_NOTICE("container-stop-notice");

    private final String metricName;

    Shortcut(String metricName) {
        this.metricName = metricName;
    }

    /** The name in {@code /metrics} and in the start-up line. */
    public String metricName() {
        return metricName;
    }
}
