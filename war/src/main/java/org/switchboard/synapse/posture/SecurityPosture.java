package org.switchboard.synapse.posture;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The posture presets of synapse-advanced §6.2 ({@code hub.posture}): what each requires before the
 * hub may serve, and which switches it forces on. Plain rules; the runtime supplies what is configured.
 */
public enum SecurityPosture {

    /** No requirements (the default). */
    OPEN,
    /** Hardening defaults: the durable ingress quota windows are on. */
    SECURE,
    /** Token, identity trust bundle (binding required) and role grants; private directed messages. */
    TEAM_SECURE,
    /** Token, durable journal, per-message HMAC (required), ACL (required) and TLS; also {@link #SECURE}'s defaults. */
    PARANOID;

    /** The key that selects a posture. */
    public static final String KEY = "hub.posture";

    /** What the operator has configured, as the posture rules need to see it. */
    public record Material(boolean token, boolean durableJournal, boolean identityTrust, boolean roleGrants,
                           boolean messageAuthKeys, boolean aclPolicy, boolean tls) {
    }

    /** The posture named {@code value} ({@code open}, {@code secure}, {@code team-secure}, {@code paranoid}); null if unknown. */
    public static SecurityPosture parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "open" -> OPEN;
            case "secure" -> SECURE;
            case "team-secure" -> TEAM_SECURE;
            case "paranoid" -> PARANOID;
            default -> null;
        };
    }

    /** The configuration keys this posture needs and {@code material} lacks (empty: the hub may serve). */
    public List<String> missing(Material material) {
        List<String> missing = new ArrayList<>();
        switch (this) {
            case TEAM_SECURE -> {
                need(missing, material.token(), "hub.token");
                need(missing, material.identityTrust(), "hub.identity-trust");
                need(missing, material.roleGrants(), "hub.role-grants");
            }
            case PARANOID -> {
                need(missing, material.token(), "hub.token");
                need(missing, material.durableJournal(), "a durable journal");
                need(missing, material.messageAuthKeys(), "hub.message-auth.key-file");
                need(missing, material.aclPolicy(), "hub.acl-policy");
                need(missing, material.tls(), "TLS (a keystore: run-hub's HUB_TLS_KEYSTORE, which sets hub.tls-native; or hub.tls-terminated-by-proxy)");
            }
            default -> {
                // open and secure need no material
            }
        }
        return missing;
    }

    /** True when the posture forces identity binding to be required. */
    public boolean forcesIdentityBinding() {
        return this == TEAM_SECURE;
    }

    /** True when the posture forces private directed messages. */
    public boolean forcesPrivateDirectedMessages() {
        return this == TEAM_SECURE;
    }

    /** True when the posture forces per-message authentication to be required. */
    public boolean forcesMessageAuth() {
        return this == PARANOID;
    }

    /** True when the posture forces ACL enforcement. */
    public boolean forcesAcl() {
        return this == PARANOID;
    }

    /** True when the posture turns the durable ingress quota windows on. */
    public boolean forcesIngressQuota() {
        return this == SECURE || this == PARANOID;
    }

    /** The refusal line for the log, or null when nothing is missing. */
    public String refusal(Material material) {
        List<String> missing = missing(material);
        return missing.isEmpty() ? null : "SYNAPSE refuses to serve: " + KEY + "=" + name().toLowerCase(Locale.ROOT)
                .replace('_', '-') + " requires " + String.join(", ", missing);
    }

    private static void need(List<String> missing, boolean present, String key) {
        if (!present) {
            missing.add(key);
        }
    }
}
