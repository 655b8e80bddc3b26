package org.switchboard.synapse.ratelimit;

import java.util.function.LongSupplier;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.RateLimits;

/**
 * The frame rate gates of the inbound pipeline (§5): step 3 charges every frame, heartbeats
 * included, to the socket's remote host; step 17 charges every non-heartbeat frame to the bound
 * sender name. A refused frame gets its private error and goes no further; the socket stays open.
 * Both gates cost one field read when switched off.
 */
public final class FrameRateLimits {

    private final SynapseContext ctx;
    private final KeyedRateLimiter perHost;
    private final KeyedRateLimiter perSender;

    /** The gates configured in the hub's settings, timed by {@link System#nanoTime()}. */
    public FrameRateLimits(SynapseContext ctx) {
        this(ctx, ctx.settings().rateLimits(), System::nanoTime);
    }

    /** The gates for {@code limits} on the given clock. */
    public FrameRateLimits(SynapseContext ctx, RateLimits limits, LongSupplier nanoClock) {
        this.ctx = ctx;
        this.perHost = limits.perHostOn() ? new KeyedRateLimiter(limits.perHostPerSecond(), limits.perHostBurst(),
                KeyedRateLimiter.DEFAULT_MAX_KEYS, nanoClock) : null;
        this.perSender = limits.perSenderOn() ? new KeyedRateLimiter(limits.perSenderPerSecond(),
                limits.perSenderBurst(), KeyedRateLimiter.DEFAULT_MAX_KEYS, nanoClock) : null;
    }

    /**
     * Step 3: charges the frame to the socket's remote host. When the host is over its rate, sends
     * {@code Host rate limit exceeded.} (target {@code all}, like the other frame-level refusals) and
     * returns false.
     */
    public boolean admitHost(Connection connection) {
        if (perHost == null || perHost.tryAcquire(connection.peer().remoteHost())) {
            return true;
        }
        connection.send(ctx.frames().errorText("all", HubStrings.HOST_RATE_LIMITED));
        return false;
    }

    /**
     * Step 17: charges a non-heartbeat frame to the bound {@code sender}. When the sender is over its
     * rate, counts it in {@code synapse_rate_limited_total}, sends {@code Rate limit exceeded.} to the
     * sender and returns false.
     */
    public boolean admitSender(Connection connection, String sender, String type) {
        if (perSender == null || "heartbeat".equals(type) || perSender.tryAcquire(sender)) {
            return true;
        }
        ctx.counters().rateLimited.increment();
        connection.send(ctx.frames().errorText(sender, HubStrings.RATE_LIMITED));
        return false;
    }

    /** The name left the hub (§4.10): its sender bucket is forgotten. */
    public void forgetSender(String sender) {
        if (perSender != null && sender != null) {
            perSender.forget(sender);
        }
    }
}
