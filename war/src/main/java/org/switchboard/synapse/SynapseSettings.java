package org.switchboard.synapse;

import java.util.Set;

/**
 * Immutable SYNAPSE settings as the plain-Java rules see them; built from {@link org.switchboard.synapse.hub.SynapseConfig}
 * in the container and from {@link #builder()} defaults in unit tests.
 */
public record SynapseSettings(
        String configuredHubId,
        String token,
        boolean privateDirectedMessages,
        int maxClients,
        int maxClientsPerHost,
        int maxUnauthenticated,
        int authTimeoutSeconds,
        int historyLimit,
        int deadLetterEscalationThreshold,
        boolean staleTracking,
        boolean ingressQuotaEnabled,
        int ingressQuotaMaxEvents,
        long ingressQuotaMaxBytes,
        int ingressQuotaWindowSeconds,
        int ingressQuotaMaxPrincipals,
        String advertisedHost,
        Set<String> allowedOrigins,
        boolean metricsEnabled,
        String metricsToken,
        String version,
        String configEpoch,
        org.switchboard.synapse.RateLimits rateLimits,
        int maxFrameKib,
        boolean rawFrameWrites,
        int websocketWriteBufferBytes,
        long historyMaxBytes,
        long maxReplyBytes,
        long outboundMaxBytes,
        // scoped attachments (synapse-advanced §3)
        String attachmentsDir,
        // identity binding (synapse-advanced §6.5)
        String identityTrust,
        boolean requireIdentityBinding,
        boolean identityPins,
        double leaseOfflineTtlSeconds,
        // per-message authentication (synapse-advanced §6.3/§6.4)
        String messageAuthKeyFile,
        boolean requireMessageAuth,
        int messageAuthWindowSeconds,
        int messageAuthSkewSeconds,
        int messageAuthNonceCache,
        String signedEventTrust,
        // governed operator verbs (synapse-advanced §7.2)
        String identityEnrollments,
        Set<String> identityEnrollNamespaces,
        int identityEnrollRateLimit,
        int identityEnrollRateWindowSeconds,
        // cross-hub receiving side (synapse-advanced §4.5, §5.3, §7.4)
        String multihubPolicy,
        String attachmentRecipientPolicy,
        String spendLedger,
        // session-bound delivery: bound on stored notifications not yet delivered (synapse-advanced §2.11)
        int deliveryNotificationsMaxPerAudience,
        int deliveryNotificationsMax,
        // session-bound delivery: terminal requests forgotten from memory (0 = kept), the journal keeps them
        long deliveryTerminalRetentionSeconds,
        int deliveryTerminalMax,
        // bounds of the §7.4 spend ledger (issue 18)
        int spendMaxLiveReservations,
        long spendRetentionSeconds) {

    /** Wire version this hub advertises: the highest whose verbs are all implemented. */
    // 6: session-bound delivery (v3), the attachment store (v4, opened with the §3.1 security posture),
    // cross-hub forwarding (v5) and peer attachment reads and spend requests (v6)
    public static final int PROTOCOL_VERSION = 6;
    /** Default {@code hub.history-max-bytes}: 64 MiB of retained chat text. */
    public static final long DEFAULT_HISTORY_MAX_BYTES = 64L * 1024 * 1024;
    /** Default {@code hub.max-reply-bytes}: 4 MiB per query reply frame. */
    public static final long DEFAULT_MAX_REPLY_BYTES = 4L * 1024 * 1024;
    /** Default {@code hub.outbound-max-bytes}: 16 MiB of frames queued for one socket. */
    public static final long DEFAULT_OUTBOUND_MAX_BYTES = 16L * 1024 * 1024;
    /** Smallest reply budget honoured: room for one chat at the default 1 MiB frame limit plus its envelope. */
    public static final long MIN_REPLY_BYTES = 1024L * 1024 + 64 * 1024;

    /** True when a connect token is configured. */
    public boolean secured() {
        return token != null && !token.isEmpty();
    }

    /** Pre-auth socket cap; 0 means "same as max clients". */
    public int effectiveMaxUnauthenticated() {
        return maxUnauthenticated > 0 ? maxUnauthenticated : maxClients;
    }

    /** The reply budget in force: {@code maxReplyBytes}, but never below {@link #MIN_REPLY_BYTES}. */
    public long replyBudget() {
        return Math.max(MIN_REPLY_BYTES, maxReplyBytes);
    }

    /** Default {@code hub.delivery-notifications-max-per-audience}. */
    public static final int DEFAULT_DELIVERY_NOTIFICATIONS_MAX_PER_AUDIENCE = 10_000;
    /** Default {@code hub.delivery-notifications-max}. */
    public static final int DEFAULT_DELIVERY_NOTIFICATIONS_MAX = 100_000;

    /** A builder primed with the spec defaults (§19). */
    public static Builder builder() {
        return new Builder();
    }

    /** Spec defaults. */
    public static SynapseSettings defaults() {
        return builder().build();
    }

    /** Mutable builder used by {@link org.switchboard.synapse.hub.SynapseConfig} and tests. */
    public static final class Builder {
        private String configuredHubId = "";
        private String token = "";
        private boolean privateDirectedMessages;
        private int maxClients = 256;
        private int maxClientsPerHost = 32;
        private int maxUnauthenticated;
        private int authTimeoutSeconds = 10;
        private int historyLimit = 10_000;
        private int deadLetterEscalationThreshold;
        private boolean staleTracking = true;
        private boolean ingressQuotaEnabled;
        private int ingressQuotaMaxEvents = 100;
        private long ingressQuotaMaxBytes = 1_048_576;
        private int ingressQuotaWindowSeconds = 60;
        private int ingressQuotaMaxPrincipals = 4096;
        private String advertisedHost = "";
        private Set<String> allowedOrigins = Set.of();
        private boolean metricsEnabled = true;
        private String metricsToken = "";
        private String version = "switchboard-0.1.0";
        private String configEpoch = "";
        private org.switchboard.synapse.RateLimits rateLimits = org.switchboard.synapse.RateLimits.OFF;
        private int maxFrameKib = 1024;
        private boolean rawFrameWrites = true;
        private int websocketWriteBufferBytes = 512;
        private long historyMaxBytes = DEFAULT_HISTORY_MAX_BYTES;
        private long maxReplyBytes = DEFAULT_MAX_REPLY_BYTES;
        private long outboundMaxBytes = DEFAULT_OUTBOUND_MAX_BYTES;
        // identity binding (synapse-advanced §6.5)
        private String identityTrust = "";
        private boolean requireIdentityBinding;
        private boolean identityPins = true;
        private double leaseOfflineTtlSeconds = 3600;
        // per-message authentication (synapse-advanced §6.3/§6.4)
        private String messageAuthKeyFile = "";
        private boolean requireMessageAuth;
        private int messageAuthWindowSeconds = 10;
        private int messageAuthSkewSeconds = 1;
        private int messageAuthNonceCache = 4096;
        private String signedEventTrust = "";

        public Builder configuredHubId(String v) { configuredHubId = v; return this; }
        public Builder token(String v) { token = v; return this; }
        public Builder privateDirectedMessages(boolean v) { privateDirectedMessages = v; return this; }
        public Builder maxClients(int v) { maxClients = v; return this; }
        public Builder maxClientsPerHost(int v) { maxClientsPerHost = v; return this; }
        public Builder maxUnauthenticated(int v) { maxUnauthenticated = v; return this; }
        public Builder authTimeoutSeconds(int v) { authTimeoutSeconds = v; return this; }
        public Builder historyLimit(int v) { historyLimit = v; return this; }
        public Builder deadLetterEscalationThreshold(int v) { deadLetterEscalationThreshold = v; return this; }
        public Builder staleTracking(boolean v) { staleTracking = v; return this; }
        public Builder ingressQuotaEnabled(boolean v) { ingressQuotaEnabled = v; return this; }
        public Builder ingressQuotaMaxEvents(int v) { ingressQuotaMaxEvents = v; return this; }
        public Builder ingressQuotaMaxBytes(long v) { ingressQuotaMaxBytes = v; return this; }
        public Builder ingressQuotaWindowSeconds(int v) { ingressQuotaWindowSeconds = v; return this; }
        public Builder ingressQuotaMaxPrincipals(int v) { ingressQuotaMaxPrincipals = v; return this; }
        public Builder advertisedHost(String v) { advertisedHost = v; return this; }
        public Builder allowedOrigins(Set<String> v) { allowedOrigins = Set.copyOf(v); return this; }
        public Builder metricsEnabled(boolean v) { metricsEnabled = v; return this; }
        public Builder metricsToken(String v) { metricsToken = v; return this; }
        public Builder version(String v) { version = v; return this; }
        public Builder configEpoch(String v) { configEpoch = v; return this; }
        public Builder rateLimits(org.switchboard.synapse.RateLimits v) { rateLimits = v; return this; }
        public Builder maxFrameKib(int v) { maxFrameKib = v; return this; }
        public Builder rawFrameWrites(boolean v) { rawFrameWrites = v; return this; }
        public Builder websocketWriteBufferBytes(int v) { websocketWriteBufferBytes = v; return this; }
        public Builder historyMaxBytes(long v) { historyMaxBytes = v; return this; }
        public Builder maxReplyBytes(long v) { maxReplyBytes = v; return this; }
        public Builder outboundMaxBytes(long v) { outboundMaxBytes = v; return this; }
        // scoped attachments (synapse-advanced §3)
        private String attachmentsDir = "";
        public Builder attachmentsDir(String v) { attachmentsDir = v; return this; }
        // identity binding (synapse-advanced §6.5)
        public Builder identityTrust(String v) { identityTrust = v; return this; }
        public Builder requireIdentityBinding(boolean v) { requireIdentityBinding = v; return this; }
        public Builder identityPins(boolean v) { identityPins = v; return this; }
        public Builder leaseOfflineTtlSeconds(double v) { leaseOfflineTtlSeconds = v; return this; }
        // per-message authentication (synapse-advanced §6.3/§6.4)
        public Builder messageAuthKeyFile(String v) { messageAuthKeyFile = v; return this; }
        public Builder requireMessageAuth(boolean v) { requireMessageAuth = v; return this; }
        public Builder messageAuthWindowSeconds(int v) { messageAuthWindowSeconds = v; return this; }
        public Builder messageAuthSkewSeconds(int v) { messageAuthSkewSeconds = v; return this; }
        public Builder messageAuthNonceCache(int v) { messageAuthNonceCache = v; return this; }
        public Builder signedEventTrust(String v) { signedEventTrust = v; return this; }
        // governed operator verbs (synapse-advanced §7.2)
        private String identityEnrollments = "";
        private Set<String> identityEnrollNamespaces = Set.of();
        private int identityEnrollRateLimit = 10;
        private int identityEnrollRateWindowSeconds = 3600;
        public Builder identityEnrollments(String v) { identityEnrollments = v; return this; }
        public Builder identityEnrollNamespaces(Set<String> v) { identityEnrollNamespaces = Set.copyOf(v); return this; }
        public Builder identityEnrollRateLimit(int v) { identityEnrollRateLimit = v; return this; }
        public Builder identityEnrollRateWindowSeconds(int v) { identityEnrollRateWindowSeconds = v; return this; }
        // cross-hub receiving side (synapse-advanced §4.5, §5.3, §7.4)
        private String multihubPolicy = "";
        private String attachmentRecipientPolicy = "";
        private String spendLedger = "";
        public Builder multihubPolicy(String v) { multihubPolicy = v; return this; }
        public Builder attachmentRecipientPolicy(String v) { attachmentRecipientPolicy = v; return this; }
        public Builder spendLedger(String v) { spendLedger = v; return this; }

        // session-bound delivery: bound on stored notifications not yet delivered (synapse-advanced §2.11)
        private int deliveryNotificationsMaxPerAudience = DEFAULT_DELIVERY_NOTIFICATIONS_MAX_PER_AUDIENCE;
        private int deliveryNotificationsMax = DEFAULT_DELIVERY_NOTIFICATIONS_MAX;
        public Builder deliveryNotificationsMaxPerAudience(int v) { deliveryNotificationsMaxPerAudience = v; return this; }
        public Builder deliveryNotificationsMax(int v) { deliveryNotificationsMax = v; return this; }
        private long deliveryTerminalRetentionSeconds;
        private int deliveryTerminalMax;
        public Builder deliveryTerminalRetentionSeconds(long v) { deliveryTerminalRetentionSeconds = v; return this; }
        public Builder deliveryTerminalMax(int v) { deliveryTerminalMax = v; return this; }

        // bounds of the §7.4 spend ledger (issue 18)
        private int spendMaxLiveReservations = org.switchboard.synapse.spend.SpendLedger.DEFAULT_MAX_LIVE;
        private long spendRetentionSeconds = org.switchboard.synapse.spend.SpendLedger.DEFAULT_RETENTION_SECONDS;
        public Builder spendMaxLiveReservations(int v) { spendMaxLiveReservations = v; return this; }
        public Builder spendRetentionSeconds(long v) { spendRetentionSeconds = v; return this; }

        /** The immutable settings. */
        public SynapseSettings build() {
            return new SynapseSettings(configuredHubId, token, privateDirectedMessages, maxClients,
                    maxClientsPerHost, maxUnauthenticated, authTimeoutSeconds, historyLimit,
                    deadLetterEscalationThreshold, staleTracking, ingressQuotaEnabled, ingressQuotaMaxEvents,
                    ingressQuotaMaxBytes, ingressQuotaWindowSeconds, ingressQuotaMaxPrincipals, advertisedHost,
                    allowedOrigins, metricsEnabled, metricsToken, version, configEpoch, rateLimits, maxFrameKib,
                    rawFrameWrites, websocketWriteBufferBytes, historyMaxBytes, maxReplyBytes, outboundMaxBytes,
                    attachmentsDir,
                    identityTrust, requireIdentityBinding, identityPins, leaseOfflineTtlSeconds,
                    messageAuthKeyFile, requireMessageAuth, messageAuthWindowSeconds, messageAuthSkewSeconds,
                    messageAuthNonceCache, signedEventTrust,
                    identityEnrollments, identityEnrollNamespaces, identityEnrollRateLimit, identityEnrollRateWindowSeconds,
                    multihubPolicy, attachmentRecipientPolicy, spendLedger,
                    deliveryNotificationsMaxPerAudience, deliveryNotificationsMax,
                    deliveryTerminalRetentionSeconds, deliveryTerminalMax,
                    spendMaxLiveReservations, spendRetentionSeconds);
        }
    }
}
