package org.switchboard.redsyn;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every {@code redsyn.*} configuration key of the relay core, with its default. Each key can be set
 * from the environment (upper case, dots to underscores: {@code REDSYN_ADMIN_TOKEN}).
 * Documented in src/site/markdown/redsyn-operator.md.
 */
@ApplicationScoped
public class RedsynConfig {

    /** Bearer token of the operator API under /redsyn/admin; unset or blank = admin API off. */
    @Inject
    @ConfigProperty(name = "redsyn.admin.token")
    Optional<String> adminToken;

    /** Seconds without a take (or webhook acceptance) after which an agent shows offline. */
    @Inject
    @ConfigProperty(name = "redsyn.presence.offline-after", defaultValue = "60")
    int offlineAfterSeconds;

    /** Lease of a take when the client gives none, in seconds. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.lease-default-seconds", defaultValue = "900")
    int leaseDefaultSeconds;

    /** Longest lease a client may ask for, in seconds. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.lease-max-seconds", defaultValue = "86400")
    int leaseMaxSeconds;

    /** Longest long poll ({@code wait}), in seconds. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.wait-max-seconds", defaultValue = "25")
    int waitMaxSeconds;

    /** Most envelopes handed out by one take. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.max-items", defaultValue = "100")
    int maxItems;

    /** Takes without an ack after which a message is abandoned and its sender told. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.max-attempts", defaultValue = "10")
    int maxAttempts;

    /** How often expired leases are requeued and expired messages reported, in milliseconds. */
    @Inject
    @ConfigProperty(name = "redsyn.inbox.sweep-interval-ms", defaultValue = "1000")
    long sweepIntervalMillis;

    /** TTL of a message that names none, in seconds (then capped by the plan). */
    @Inject
    @ConfigProperty(name = "redsyn.message.default-ttl-seconds", defaultValue = "86400")
    long defaultTtlSeconds;

    public Optional<String> adminToken() {
        return adminToken.filter(t -> !t.isBlank());
    }

    public int offlineAfterSeconds() {
        return offlineAfterSeconds;
    }

    public int leaseDefaultSeconds() {
        return leaseDefaultSeconds;
    }

    public int leaseMaxSeconds() {
        return leaseMaxSeconds;
    }

    public int waitMaxSeconds() {
        return waitMaxSeconds;
    }

    public int maxItems() {
        return maxItems;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public long sweepIntervalMillis() {
        return sweepIntervalMillis;
    }

    public long defaultTtlSeconds() {
        return defaultTtlSeconds;
    }

    // request bodies: bounded while they stream in, before any parsing

    /**
     * Most bytes of a request body, outside the {@code files} member of a send: the 64 KB {@code body}
     * of an envelope with room for JSON escaping, refs and the other fields, or an ack of 1,000 ids.
     */
    @Inject
    @ConfigProperty(name = "redsyn.request.max-bytes", defaultValue = "262144")
    long requestMaxBytes;

    /** Deepest nesting of objects and arrays in a request body (envelope signatures are canonicalised to this depth). */
    @Inject
    @ConfigProperty(name = "redsyn.request.max-depth", defaultValue = "256")
    int requestMaxDepth;

    /** Longest number literal in a request body, in characters (the JSON parser refuses beyond 1,100). */
    @Inject
    @ConfigProperty(name = "redsyn.request.max-number-chars", defaultValue = "1000")
    int requestMaxNumberChars;

    public long requestMaxBytes() {
        return requestMaxBytes;
    }

    public int requestMaxDepth() {
        return requestMaxDepth;
    }

    public int requestMaxNumberChars() {
        return requestMaxNumberChars;
    }

    // webhooks

    /** Test only: also accept {@code http://127.0.0.1:<port>} as a webhook URL (off: https with a public host name only). */
    @Inject
    @ConfigProperty(name = "redsyn.webhook.allow-loopback-http", defaultValue = "false")
    boolean webhookAllowLoopbackHttp;

    /** Test only: multiplies every webhook retry interval (10 s, 20 s, 40 s ... one hour); 1 in production. */
    @Inject
    @ConfigProperty(name = "redsyn.webhook.retry-scale", defaultValue = "1.0")
    double webhookRetryScale;

    public boolean webhookAllowLoopbackHttp() {
        return webhookAllowLoopbackHttp;
    }

    public double webhookRetryScale() {
        return webhookRetryScale;
    }
}
