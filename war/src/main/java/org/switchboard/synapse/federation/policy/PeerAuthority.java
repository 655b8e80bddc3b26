package org.switchboard.synapse.federation.policy;

import java.util.Locale;
import org.switchboard.synapse.Connection;

/**
 * Decides whether a connection is a proven peer hub (synapse-advanced §4.2, §4.3, §4.5 step 1), afresh
 * for every hub-to-hub frame so a revoked or expired grant stops the next one: the socket is bound
 * under a HUB_ID (no {@code /}) at {@code protocol_version} ≥ {@code minVersion}, the serving policy
 * holds a live grant for that id, and the socket proved itself by the rule of {@link #proven}: on
 * {@code wss://} by the client certificate its grants pin, on loopback {@code ws://} by the hub's
 * connect token when its grants pin no certificate. Every other case is refused the same way.
 */
public final class PeerAuthority {

    private final PolicySource<MultihubPolicy> policy;
    private final boolean tokenSecured;

    /** Peers judged against {@code policy}; {@code tokenSecured} is whether the hub requires a connect token. */
    public PeerAuthority(PolicySource<MultihubPolicy> policy, boolean tokenSecured) {
        this.policy = policy;
        this.tokenSecured = tokenSecured;
    }

    /** The policy in force now. */
    public MultihubPolicy policy() {
        return policy.get();
    }

    /** The peer's hub id when {@code connection} is a proven peer at {@code minVersion}, else null. */
    public String peerId(Connection connection, int minVersion, double now) {
        return peerId(connection, connection.name(), minVersion, now);
    }

    /** As {@link #peerId(Connection, int, double)} for a socket registering under {@code name} (not bound yet). */
    public String peerId(Connection connection, String name, int minVersion, double now) {
        if (name == null || !PolicyChecks.hubId(name) || connection.protocolVersion() < minVersion) {
            return null;
        }
        MultihubPolicy current = policy.get();
        if (!current.authorises(name, now)) {
            return null;
        }
        boolean token = tokenSecured && connection.quotaPrincipal() != null
                && connection.quotaPrincipal().startsWith("auth-token:");
        return proven(connection.tls(), connection.clientCertificatePin(), current.certPins(name, now), token,
                loopback(connection.peer().remoteHost())) ? name : null;
    }

    /**
     * The proof rule of a peer hub holding a live grant whose certificate pins are {@code pinned}:
     * <ul>
     * <li>over TLS: the grant pins a certificate and {@code presentedPin} (the client certificate of the
     * handshake) is that pin; a TLS socket is never proven by the token alone;</li>
     * <li>over plain {@code ws://}: the grant pins no certificate, the registration carried the hub's
     * connect token ({@code token}) and the socket comes from loopback; a pinned grant never accepts
     * plain {@code ws://}, since no certificate can be seen there.</li>
     * </ul>
     */
    public static boolean proven(boolean tls, String presentedPin, java.util.Set<String> pinned, boolean token,
                                 boolean loopback) {
        if (tls) {
            return CertificatePins.matches(presentedPin, pinned);
        }
        return pinned.isEmpty() && token && loopback;
    }

    /** Numeric loopback or {@code localhost} (IPv4 127/8, IPv6 ::1, its mapped form). */
    public static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT).strip();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}") || h.matches("::ffff:127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
