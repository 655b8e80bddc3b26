package org.switchboard.synapse.hub;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.posture.SecurityPosture;

/**
 * The one place SYNAPSE reads configuration (MicroProfile Config, keys under {@code hub.*}, each
 * also settable from the environment, e.g. {@code hub.token} as {@code HUB_TOKEN}).
 */
@ApplicationScoped
public class SynapseConfig {

    /** Fixed hub id; empty = the journal's stored id (generated once). */
    @Inject @ConfigProperty(name = "hub.id")
    Optional<String> hubId;

    /** Shared connect token; empty = open hub. */
    @Inject @ConfigProperty(name = "hub.token")
    Optional<String> token;

    /** Route addressed chat only to its recipients, their sidecars and the sender (§7.4). */
    @Inject @ConfigProperty(name = "hub.private-directed-messages", defaultValue = "false")
    boolean privateDirectedMessages;

    @Inject @ConfigProperty(name = "hub.max-clients", defaultValue = "256")
    int maxClients;

    /** Sockets per remote host; 0 disables the cap. */
    @Inject @ConfigProperty(name = "hub.max-clients-per-host", defaultValue = "32")
    int maxClientsPerHost;

    /** Sockets awaiting auth on a secured hub; 0 = same as hub.max-clients. */
    @Inject @ConfigProperty(name = "hub.max-unauthenticated", defaultValue = "0")
    int maxUnauthenticated;

    @Inject @ConfigProperty(name = "hub.auth-timeout-seconds", defaultValue = "10")
    int authTimeoutSeconds;

    @Inject @ConfigProperty(name = "hub.history-limit", defaultValue = "10000")
    int historyLimit;

    /** Encoded bytes of retained public chat history (and of all channel histories together); oldest leave first. */
    @Inject @ConfigProperty(name = "hub.history-max-bytes", defaultValue = "67108864")
    long historyMaxBytes;

    /**
     * Largest reply frame the hub builds for a query (history, resume, channel history, who, state):
     * a request for more gets the newest entries that fit, {@code truncated: true} and a cursor.
     * Values under 1,114,112 (one 1 MiB chat plus envelope) are raised to it.
     */
    @Inject @ConfigProperty(name = "hub.max-reply-bytes", defaultValue = "4194304")
    long maxReplyBytes;

    /**
     * Frame text queued for one socket and not yet written; a socket whose reader falls this far behind
     * is closed with 1013 (§6.4). One frame larger than this is still sent to a socket with nothing queued.
     */
    @Inject @ConfigProperty(name = "hub.outbound-max-bytes", defaultValue = "16777216")
    long outboundMaxBytes;

    /** Dead-letter escalation threshold; 0 = off. */
    @Inject @ConfigProperty(name = "hub.dead-letter-escalation-threshold", defaultValue = "0")
    int deadLetterEscalationThreshold;

    /** Stale-recipient tracking (reaction window 90 s). */
    @Inject @ConfigProperty(name = "hub.stale-tracking", defaultValue = "true")
    boolean staleTracking;

    @Inject @ConfigProperty(name = "hub.ingress-quota.enabled", defaultValue = "false")
    boolean ingressQuotaEnabled;

    @Inject @ConfigProperty(name = "hub.ingress-quota.max-events", defaultValue = "100")
    int ingressQuotaMaxEvents;

    @Inject @ConfigProperty(name = "hub.ingress-quota.max-bytes", defaultValue = "1048576")
    long ingressQuotaMaxBytes;

    @Inject @ConfigProperty(name = "hub.ingress-quota.window-seconds", defaultValue = "60")
    int ingressQuotaWindowSeconds;

    @Inject @ConfigProperty(name = "hub.ingress-quota.max-principals", defaultValue = "4096")
    int ingressQuotaMaxPrincipals;

    /** Extra trusted Host authority for the handshake guard (§2.2). */
    @Inject @ConfigProperty(name = "hub.advertised-host")
    Optional<String> advertisedHost;

    /** Comma-separated browser Origins admitted by the handshake guard; empty = none. */
    @Inject @ConfigProperty(name = "hub.allowed-origins")
    Optional<String> allowedOrigins;

    /** Serve /health and /metrics (403 "metrics disabled" otherwise). */
    @Inject @ConfigProperty(name = "hub.metrics-enabled", defaultValue = "true")
    boolean metricsEnabled;

    /** Bearer token required by /health and /metrics; empty = none. */
    @Inject @ConfigProperty(name = "hub.metrics-token")
    Optional<String> metricsToken;

    /** Fingerprint of the operator configuration reported as config_epoch. */
    @Inject @ConfigProperty(name = "hub.config-epoch")
    Optional<String> configEpoch;

    /** The settings snapshot handed to the plain-Java rules. */
    public SynapseSettings settings() {
        SecurityPosture posture = posture();
        return SynapseSettings.builder()
                .configuredHubId(hubId.orElse("").trim())
                .token(token.orElse(""))
                .privateDirectedMessages(privateDirectedMessages || posture.forcesPrivateDirectedMessages())
                .maxClients(maxClients)
                .maxClientsPerHost(maxClientsPerHost)
                .maxUnauthenticated(maxUnauthenticated)
                .authTimeoutSeconds(authTimeoutSeconds)
                .historyLimit(historyLimit)
                .deadLetterEscalationThreshold(deadLetterEscalationThreshold)
                .staleTracking(staleTracking)
                .ingressQuotaEnabled(ingressQuotaEnabled || posture.forcesIngressQuota())
                .ingressQuotaMaxEvents(ingressQuotaMaxEvents)
                .ingressQuotaMaxBytes(ingressQuotaMaxBytes)
                .ingressQuotaWindowSeconds(ingressQuotaWindowSeconds)
                .ingressQuotaMaxPrincipals(ingressQuotaMaxPrincipals)
                .advertisedHost(advertisedHost.orElse("").trim())
                .allowedOrigins(Arrays.stream(allowedOrigins.orElse("").split(","))
                        .map(String::trim).filter(s -> !s.isEmpty()).map(SynapseConfig::normaliseOrigin)
                        .collect(Collectors.toSet()))
                .metricsEnabled(metricsEnabled)
                .metricsToken(metricsToken.orElse(""))
                .configEpoch(configEpoch.orElse(""))
                .rateLimits(rateLimits()).maxFrameKib(maxFrameKib).rawFrameWrites(rawFrameWrites)
                .websocketWriteBufferBytes(websocketWriteBufferBytes)
                .historyMaxBytes(historyMaxBytes).maxReplyBytes(maxReplyBytes).outboundMaxBytes(outboundMaxBytes)
                .attachmentsDir(attachmentsDir.orElse("").trim())
                .identityTrust(identityTrust.orElse("").trim()).requireIdentityBinding(requireIdentityBinding || posture.forcesIdentityBinding())
                .identityPins(identityPins).leaseOfflineTtlSeconds(leaseOfflineTtlSeconds)
                .messageAuthKeyFile(messageAuthKeyFile.orElse("").trim()).requireMessageAuth(requireMessageAuth || posture.forcesMessageAuth())
                .messageAuthWindowSeconds(messageAuthWindowSeconds).messageAuthSkewSeconds(messageAuthSkewSeconds)
                .messageAuthNonceCache(messageAuthNonceCache).signedEventTrust(signedEventTrust.orElse("").trim())
                .identityEnrollments(identityEnrollments.orElse("").trim()).identityEnrollNamespaces(enrollNamespaces())
                .identityEnrollRateLimit(identityEnrollRateLimit).identityEnrollRateWindowSeconds(identityEnrollRateWindowSeconds)
                .multihubPolicy(multihubPolicy.orElse("").trim())
                .attachmentRecipientPolicy(attachmentRecipientPolicy.orElse("").trim()).spendLedger(spendLedger.orElse("").trim())
                .deliveryNotificationsMaxPerAudience(deliveryNotificationsMaxPerAudience).deliveryNotificationsMax(deliveryNotificationsMax)
                .deliveryTerminalRetentionSeconds(deliveryTerminalRetentionSeconds).deliveryTerminalMax(deliveryTerminalMax)
                .spendMaxLiveReservations(spendMaxLiveReservations).spendRetentionSeconds(spendRetentionSeconds)
                .build();
    }

    /** Lower-cased origin without a trailing slash. */
    public static String normaliseOrigin(String origin) {
        String o = origin.trim().toLowerCase(java.util.Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }

    // coordination (claims, board, resources, capability cards; see synapse-coordination.md)

    /** Live claims per quota principal (credential digest, or remote host on an open hub). */
    @Inject @ConfigProperty(name = "hub.claims.max-per-principal", defaultValue = "128")
    int claimsMaxPerPrincipal;

    /** Declared paths per claim; more widens the scope to the whole tree. */
    @Inject @ConfigProperty(name = "hub.claims.max-paths", defaultValue = "512")
    int claimsMaxPaths;

    /** Lease of a claim without a usable ttl_seconds, and of a handoff recipient. */
    @Inject @ConfigProperty(name = "hub.claims.default-lease-seconds", defaultValue = "3600")
    double claimsDefaultLeaseSeconds;

    @Inject @ConfigProperty(name = "hub.claims.min-lease-seconds", defaultValue = "30")
    double claimsMinLeaseSeconds;

    @Inject @ConfigProperty(name = "hub.claims.max-lease-seconds", defaultValue = "2592000")
    double claimsMaxLeaseSeconds;

    /** Retained progress notes: in total, per author, per task. */
    @Inject @ConfigProperty(name = "hub.board.max-notes", defaultValue = "5000")
    int boardMaxNotes;

    @Inject @ConfigProperty(name = "hub.board.max-notes-per-author", defaultValue = "1000")
    int boardMaxNotesPerAuthor;

    @Inject @ConfigProperty(name = "hub.board.max-notes-per-task", defaultValue = "1000")
    int boardMaxNotesPerTask;

    /** Tasks shown in a board snapshot; 0 = all. */
    @Inject @ConfigProperty(name = "hub.board.snapshot-task-cap", defaultValue = "0")
    int boardSnapshotTaskCap;

    @Inject @ConfigProperty(name = "hub.resources.max-offers-per-agent", defaultValue = "64")
    int resourcesMaxOffersPerAgent;

    @Inject @ConfigProperty(name = "hub.resources.ttl-seconds", defaultValue = "300")
    double resourcesTtlSeconds;

    @Inject @ConfigProperty(name = "hub.capabilities.live-ttl-seconds", defaultValue = "300")
    double capabilitiesLiveTtlSeconds;

    @Inject @ConfigProperty(name = "hub.capabilities.persistent-ttl-seconds", defaultValue = "86400")
    double capabilitiesPersistentTtlSeconds;

    /** Capability-card trust bundle (JSON file, synapse-advanced §6.8); empty = signed cards are unknown_key. */
    @Inject @ConfigProperty(name = "hub.capabilities.card-trust")
    Optional<String> capabilitiesCardTrust;

    /** Clock skew allowed around a signed card's signed_at..expires_at window. */
    @Inject @ConfigProperty(name = "hub.capabilities.card-skew-seconds", defaultValue = "300")
    double capabilitiesCardSkewSeconds;

    /** Continuous darkness before a dark_seat_alert (§14). */
    @Inject @ConfigProperty(name = "hub.dark-seat.grace-seconds", defaultValue = "30")
    double darkSeatGraceSeconds;

    /** Recent idempotency operation records kept in memory in front of the journal-backed store. */
    @Inject @ConfigProperty(name = "hub.idempotency.cache-size", defaultValue = "1024")
    int idempotencyCacheSize;

    /** The coordination limits handed to the plain-Java rules (produced for the coordination state). */
    @jakarta.enterprise.inject.Produces
    public org.switchboard.synapse.coordination.CoordinationSettings coordination() {
        return new org.switchboard.synapse.coordination.CoordinationSettings(
                new org.switchboard.synapse.claims.ClaimBook.Limits(claimsMaxPerPrincipal, claimsMaxPaths,
                        claimsDefaultLeaseSeconds, claimsMinLeaseSeconds, claimsMaxLeaseSeconds),
                new org.switchboard.synapse.board.Blackboard.Limits(boardMaxNotes, boardMaxNotesPerAuthor,
                        boardMaxNotesPerTask, boardSnapshotTaskCap),
                resourcesMaxOffersPerAgent, resourcesTtlSeconds, capabilitiesLiveTtlSeconds,
                capabilitiesPersistentTtlSeconds, capabilitiesCardTrust.orElse(""), capabilitiesCardSkewSeconds,
                darkSeatGraceSeconds, idempotencyCacheSize);
    }

    // ingress limits and off-loopback posture (frame rates, frame size, bind guard; see configuration.md)

    /** Per-sender frame rate (frames/s, heartbeats exempt, §5 step 17); 0 = off. */
    @Inject @ConfigProperty(name = "hub.rate-limit.per-sender", defaultValue = "0")
    double rateLimitPerSender;

    /** Per-sender burst (frames); 0 = one second's worth. */
    @Inject @ConfigProperty(name = "hub.rate-limit.per-sender-burst", defaultValue = "0")
    int rateLimitPerSenderBurst;

    /** Per-remote-host frame rate (frames/s, every frame, §5 step 3); 0 = off. */
    @Inject @ConfigProperty(name = "hub.rate-limit.per-host", defaultValue = "0")
    double rateLimitPerHost;

    /** Per-remote-host burst (frames); 0 = one second's worth. */
    @Inject @ConfigProperty(name = "hub.rate-limit.per-host-burst", defaultValue = "0")
    int rateLimitPerHostBurst;

    /** Largest inbound frame in KiB (§2.1); larger frames close the socket with 1009. */
    @Inject @ConfigProperty(name = "hub.max-frame-kib", defaultValue = "1024")
    int maxFrameKib;

    /** Listen address the hub was started on (run-hub's HUB_BIND); drives the off-loopback posture check (§2.4). */
    @Inject @ConfigProperty(name = "hub.bind", defaultValue = "127.0.0.1")
    String bind;

    /** Serve SYNAPSE off loopback even without a connect token or metrics token (§2.4 operator override). */
    @Inject @ConfigProperty(name = "hub.allow-insecure-bind", defaultValue = "false")
    boolean allowInsecureBind;

    // Outbound frame writes
    /**
     * Write outbound frames pre-encoded and coalesced through Tyrus's raw-frame call (Payara); false
     * keeps Tyrus's standard text send, one write per frame. A switch in case a Payara update changes
     * the Tyrus internals this relies on; other containers always use the standard send.
     */
    @Inject @ConfigProperty(name = "hub.raw-frame-writes", defaultValue = "true")
    boolean rawFrameWrites;

    /**
     * Size of the container's per-socket output buffer for WebSocket connections (Payara; 0 keeps the
     * container's default, 8 KiB). Payara allocates a fresh buffer of this size for every write smaller
     * than it and hands larger writes to the socket without a copy; 512 is the smallest it accepts.
     */
    @Inject @ConfigProperty(name = "hub.websocket-write-buffer-bytes", defaultValue = "512")
    int websocketWriteBufferBytes;

    /** The two frame rate limits handed to the dispatcher. */
    public org.switchboard.synapse.RateLimits rateLimits() {
        return new org.switchboard.synapse.RateLimits(rateLimitPerSender, rateLimitPerSenderBurst,
                rateLimitPerHost, rateLimitPerHostBurst);
    }

    /** The configured listen address. */
    public String bind() {
        return bind;
    }

    /** True when the operator overrides the off-loopback posture check. */
    public boolean allowInsecureBind() {
        return allowInsecureBind;
    }

    // scoped attachments (synapse-advanced §3)

    /** Root of the v4 attachment store; empty = no store. It opens only with the full §3.1 posture. */
    @Inject @ConfigProperty(name = "hub.attachments.dir")
    Optional<String> attachmentsDir;

    // identity binding: operator trust bundle, signed registration, TOFU pins (synapse-advanced §6.5)

    /** Operator identity trust bundle file (JSON, mode 0600); empty = none (TOFU pins decide). */
    @Inject @ConfigProperty(name = "hub.identity-trust")
    Optional<String> identityTrust;

    /** Refuse (4013) every first frame that does not verify against the trust bundle for its sender. */
    @Inject @ConfigProperty(name = "hub.require-identity-binding", defaultValue = "false")
    boolean requireIdentityBinding;

    /** Pin a name to the first key that signs its registration (trust on first use; only without a bundle). */
    @Inject @ConfigProperty(name = "hub.identity-pins", defaultValue = "true")
    boolean identityPins;

    /** Offline time after which an ownership lease lapses (seconds). */
    @Inject @ConfigProperty(name = "hub.lease-offline-ttl-seconds", defaultValue = "3600")
    double leaseOfflineTtlSeconds;

    // Per-message authentication (synapse-advanced §6.3 HMAC, §6.4 signed events; org.switchboard.synapse.messageauth)
    /** HMAC key file {@code {"keys":[{kid, secret, senders, revoked?}]}} (owner-only); empty = no keys. */
    @Inject @ConfigProperty(name = "hub.message-auth.key-file")
    Optional<String> messageAuthKeyFile;

    /** Refuse claim/release/task_update/handoff/checkpoint/resource frames that do not verify. */
    @Inject @ConfigProperty(name = "hub.require-message-auth", defaultValue = "false")
    boolean requireMessageAuth;

    /** Oldest accepted {@code auth.timestamp}: now minus this many seconds. */
    @Inject @ConfigProperty(name = "hub.message-auth.window-seconds", defaultValue = "10")
    int messageAuthWindowSeconds;

    /** Newest accepted {@code auth.timestamp}: now plus this many seconds (client clock skew). */
    @Inject @ConfigProperty(name = "hub.message-auth.skew-seconds", defaultValue = "1")
    int messageAuthSkewSeconds;

    /** Live nonces held; when full of live ones, new frames are refused ({@code replayed}), never evicted. */
    @Inject @ConfigProperty(name = "hub.message-auth.nonce-cache", defaultValue = "4096")
    int messageAuthNonceCache;

    /** Ed25519 signed-event trust bundle (§6.4) whose valid signatures also satisfy the requirement; empty = none. */
    @Inject @ConfigProperty(name = "hub.signed-event-trust")
    Optional<String> signedEventTrust;

    // ---- ACL and role grants (synapse-advanced §6.6, §6.7; issue 17) ----

    /** The ACL policy file (§6.6 format, mode 0600); absent = no policy (task control is then never granted). */
    @Inject @ConfigProperty(name = "hub.acl-policy")
    Optional<String> aclPolicy;

    /** When true, every gated frame must be allowed by the policy (pipeline step 17). */
    @Inject @ConfigProperty(name = "hub.require-acl", defaultValue = "false")
    boolean requireAcl;

    /** The role-grant file (§6.7); when set, declared roles not granted are dropped. */
    @Inject @ConfigProperty(name = "hub.role-grants")
    Optional<String> roleGrants;

    /** The ACL layer's settings. */
    public org.switchboard.synapse.acl.AclSettings acl() {
        return new org.switchboard.synapse.acl.AclSettings(
                aclPolicy.map(String::trim).filter(s -> !s.isEmpty()).map(java.nio.file.Path::of).orElse(null),
                requireAcl || posture().forcesAcl(),
                roleGrants.map(String::trim).filter(s -> !s.isEmpty()).map(java.nio.file.Path::of).orElse(null));
    }

    // ---- posture presets (synapse-advanced §6.2) ----

    /** {@code open} (default), {@code secure}, {@code team-secure} or {@code paranoid}; see operator-guide.md. */
    @Inject @ConfigProperty(name = "hub.posture", defaultValue = "open")
    String posture;

    /** Declares that a proxy in front of the hub terminates TLS (one of the two ways {@code paranoid}'s TLS is met). */
    @Inject @ConfigProperty(name = "hub.tls-terminated-by-proxy", defaultValue = "false")
    boolean tlsTerminatedByProxy;

    /** The configured posture ({@code open} when the value is unknown: {@link #postureRefusal} refuses it). */
    public SecurityPosture posture() {
        SecurityPosture parsed = SecurityPosture.parse(posture);
        return parsed == null ? SecurityPosture.OPEN : parsed;
    }

    /** The start-up refusal the posture demands (an unknown name, or material it requires); null when none. */
    public String postureRefusal(boolean durableJournal) {
        SecurityPosture parsed = SecurityPosture.parse(posture);
        if (parsed == null) {
            return "SYNAPSE refuses to serve: " + SecurityPosture.KEY + ": unknown posture (open, secure, team-secure, paranoid)";
        }
        org.switchboard.synapse.acl.AclSettings acl = acl();
        return parsed.refusal(new SecurityPosture.Material(token.filter(t -> !t.isBlank()).isPresent(), durableJournal,
                identityTrust.filter(t -> !t.isBlank()).isPresent(), acl.roleGrants() != null,
                messageAuthKeyFile.filter(t -> !t.isBlank()).isPresent(), acl.policy() != null,
                tlsTerminatedByProxy || tlsNative));
    }

    // ---- governed operator verbs (synapse-advanced §7.2 enrolment; org.switchboard.synapse.governance) ----

    /** The enrolment overlay file the hub writes atomically (0600) and reads strictly at start; empty = enrolment off. */
    @Inject @ConfigProperty(name = "hub.identity-enrollments")
    Optional<String> identityEnrollments;

    /** Comma-separated projects whose names may be enrolled (empty = none). */
    @Inject @ConfigProperty(name = "hub.identity-enroll-namespaces")
    Optional<String> identityEnrollNamespaces;

    /** Enrolment changes one requester may apply per sliding window. */
    @Inject @ConfigProperty(name = "hub.identity-enroll-rate-limit", defaultValue = "10")
    int identityEnrollRateLimit;

    /** Length of that sliding window (seconds). */
    @Inject @ConfigProperty(name = "hub.identity-enroll-rate-window-seconds", defaultValue = "3600")
    int identityEnrollRateWindowSeconds;

    private java.util.Set<String> enrollNamespaces() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (String part : identityEnrollNamespaces.orElse("").split(",")) {
            if (!part.isBlank()) {
                out.add(part.strip());
            }
        }
        return out;
    }

    // ---- native TLS (issue 17: run-hub with HUB_TLS_KEYSTORE) ----

    /**
     * Set by run-hub (a system property, which outranks the environment) to true exactly when the hub's
     * listener serves TLS from {@code HUB_TLS_KEYSTORE}; {@code paranoid} then needs no proxy declaration.
     */
    @Inject @ConfigProperty(name = "hub.tls-native", defaultValue = "false")
    boolean tlsNative;

    // ---- cross-hub receiving side (synapse-advanced §4.5 forwards, §5.3 peer attachment reads, §7.4 spend; issue 18) ----

    /** The multi-hub serving policy file (grants per peer hub; mode 0600, ≤ 65,536 bytes); empty = accept no forward. */
    @Inject @ConfigProperty(name = "hub.multihub-policy")
    Optional<String> multihubPolicy;

    /** The §5.1 recipient policy for peer attachment reads, re-read on every request; empty = peer reads off. */
    @Inject @ConfigProperty(name = "hub.attachment-recipient-policy")
    Optional<String> attachmentRecipientPolicy;

    /** The owner-only serialized spend ledger file (§7.4); empty = every spend_request gets the not-admitted answer. */
    @Inject @ConfigProperty(name = "hub.spend-ledger")
    Optional<String> spendLedger;

    // ---- session-bound delivery: undelivered notifications (issue 16) ----

    /** Stored delivery notifications kept for one audience that has not taken them; the oldest leave first. */
    @Inject @ConfigProperty(name = "hub.delivery-notifications-max-per-audience", defaultValue = "10000")
    int deliveryNotificationsMaxPerAudience;

    /** Stored delivery notifications kept for all audiences together; the oldest leave first. */
    @Inject @ConfigProperty(name = "hub.delivery-notifications-max", defaultValue = "100000")
    int deliveryNotificationsMax;

    /** Seconds a terminal delivery request stays in memory after it closed (0 = for ever); the journal keeps it. */
    @Inject @ConfigProperty(name = "hub.delivery-terminal-retention-seconds", defaultValue = "0")
    long deliveryTerminalRetentionSeconds;

    /** Most terminal delivery requests held in memory (0 = no cap); beyond it the earliest closed are forgotten. */
    @Inject @ConfigProperty(name = "hub.delivery-terminal-max", defaultValue = "0")
    int deliveryTerminalMax;

    // ---- cross-hub forwarding, origin side (synapse-advanced §4.2, §4.6; issue 18) ----

    /** Message peers, {@code HUB_ID=ws[s]://host:port/[,…]}; empty = none (hub-qualified chats are refused). */
    @Inject @ConfigProperty(name = "hub.message-peers")
    Optional<String> messagePeerList;

    /** Connect token presented to every peer (their {@code hub.token}); a secret, never logged. */
    @Inject @ConfigProperty(name = "hub.message-peer-token")
    Optional<String> messagePeerToken;

    /** This hub's identity key file for its peer registrations (synapse-advanced §4.2, §6.5); unset = unsigned. */
    @Inject @ConfigProperty(name = "hub.message-peer-identity-key")
    Optional<String> messagePeerIdentityKey;

    /** Certificate pins, {@code HUB_ID=sha256:<hex>[,…]}: one per {@code wss://} peer. */
    @Inject @ConfigProperty(name = "hub.message-peer-pins")
    Optional<String> messagePeerPins;

    /** PKCS12/JKS keystore holding the client certificate presented to {@code wss://} peers (mutual TLS); empty = none. */
    @Inject @ConfigProperty(name = "hub.message-peer-keystore")
    Optional<String> messagePeerKeystore;

    /** The key entry of {@code hub.message-peer-keystore} to present; empty = its only private key entry. */
    @Inject @ConfigProperty(name = "hub.message-peer-keystore-alias")
    Optional<String> messagePeerKeystoreAlias;

    /** A file holding the keystore password (first line); the other way is the environment variable only. */
    @Inject @ConfigProperty(name = "hub.message-peer-keystore-password-file")
    Optional<String> messagePeerKeystorePasswordFile;

    /**
     * Forwards to a peer that offers it share a few reused connections instead of one connection each
     * (ours; false = §4.3's one connection per forward to every peer).
     */
    @Inject @ConfigProperty(name = "hub.message-peer-reuse", defaultValue = "true")
    boolean messagePeerReuse;

    /** Whether forwards may share reused connections with peers that offer it ({@code hub.message-peer-reuse}). */
    public boolean messagePeerReuse() {
        return messagePeerReuse;
    }

    /** How long a forward is retried before it settles {@code expired}. */
    @Inject @ConfigProperty(name = "hub.message-forward-ttl-seconds", defaultValue = "86400")
    long messageForwardTtlSeconds;

    /** Longest wait between two attempts of a forward (the §4.6 schedule is capped at 300 s; lower = faster recovery). */
    @Inject @ConfigProperty(name = "hub.message-forward-max-backoff-seconds", defaultValue = "300")
    long messageForwardMaxBackoffSeconds;

    /** The parsed peers (a malformed setting leaves none and a start-up fault naming its key). */
    public org.switchboard.synapse.federation.outbound.MessagePeers messagePeers() {
        return org.switchboard.synapse.federation.outbound.MessagePeers.parse(messagePeerList.orElse(""),
                messagePeerPins.orElse(""), messageForwardTtlSeconds).withMaxBackoff(messageForwardMaxBackoffSeconds)
                .withPendingCaps(messageForwardMaxPendingPerPeer, messageForwardMaxPendingBytes)
                .withClientKeystore(messagePeerKeystore.orElse(""), messagePeerKeystorePassword(),
                        messagePeerKeystoreAlias.orElse(""));
    }

    /**
     * The client keystore's password: the environment variable {@code HUB_MESSAGE_PEER_KEYSTORE_PASSWORD}
     * (read from the environment itself, so it is never taken from a system property on a command line)
     * or the first line of {@code hub.message-peer-keystore-password-file}; null when neither is set or
     * the file cannot be read (the keystore check then refuses, naming its key).
     */
    private char[] messagePeerKeystorePassword() {
        String fromEnv = System.getenv(org.switchboard.synapse.federation.outbound.PeerClientIdentity.PASSWORD_ENV);
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return fromEnv.toCharArray();
        }
        String file = messagePeerKeystorePasswordFile.orElse("").strip();
        if (file.isEmpty()) {
            return null;
        }
        try {
            String first = java.nio.file.Files.readString(java.nio.file.Path.of(file)).lines().findFirst().orElse("");
            return first.toCharArray();
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** The path of this hub's peer identity key file ({@code ""} when unset). */
    public String messagePeerIdentityKey() {
        return messagePeerIdentityKey.orElse("").strip();
    }

    /** The token presented to peers ({@code ""} when unset). */
    public String messagePeerToken() {
        return messagePeerToken.orElse("").strip();
    }

    // ---- off-loopback TLS rule (issue 17, synapse-core §2.4) ----

    /** True when the listener serves TLS itself or a proxy in front of it is declared to terminate TLS. */
    public boolean tlsInPlace() {
        return tlsTerminatedByProxy || tlsNative;
    }

    // ---- bounds on what a peer or a dead peer can grow (issue 18: forward outbox caps, spend ledger) ----

    /** Most pending forwards to one peer; beyond it a hub-qualified chat is refused before it is journalled. */
    @Inject @ConfigProperty(name = "hub.message-forward-max-pending-per-peer", defaultValue = "50000")
    long messageForwardMaxPendingPerPeer;

    /** Most heap counted for all pending forwards (overhead per entry plus payload); beyond it chats are refused. */
    @Inject @ConfigProperty(name = "hub.message-forward-max-pending-bytes", defaultValue = "268435456")
    long messageForwardMaxPendingBytes;

    /** Most live reservations one peer hub may hold in one spend pool; a reserve beyond it is not admitted. */
    @Inject @ConfigProperty(name = "hub.spend-max-live-reservations", defaultValue = "1024")
    int spendMaxLiveReservations;

    /** How long a closed spend reservation (or one of a window its pool left) is kept for idempotent retries. */
    @Inject @ConfigProperty(name = "hub.spend-retention-seconds", defaultValue = "86400")
    long spendRetentionSeconds;
}
