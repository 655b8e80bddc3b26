package org.switchboard.synapse;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

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
        return SynapseSettings.builder()
                .configuredHubId(hubId.orElse("").trim())
                .token(token.orElse(""))
                .privateDirectedMessages(privateDirectedMessages)
                .maxClients(maxClients)
                .maxClientsPerHost(maxClientsPerHost)
                .maxUnauthenticated(maxUnauthenticated)
                .authTimeoutSeconds(authTimeoutSeconds)
                .historyLimit(historyLimit)
                .deadLetterEscalationThreshold(deadLetterEscalationThreshold)
                .staleTracking(staleTracking)
                .ingressQuotaEnabled(ingressQuotaEnabled)
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
                .build();
    }

    /** Lower-cased origin without a trailing slash. */
    public static String normaliseOrigin(String origin) {
        String o = origin.trim().toLowerCase(java.util.Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}
