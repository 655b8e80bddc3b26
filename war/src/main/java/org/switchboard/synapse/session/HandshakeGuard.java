package org.switchboard.synapse.session;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The Host/Origin rules of the handshake guard (§2.2): loopback authorities (with and without the
 * port, IPv6 bracketed) plus an optional advertised host; any non-empty Origin must be on the
 * operator allow-list.
 */
public final class HandshakeGuard {

    private final String advertisedHost;
    private final Set<String> allowedOrigins;

    /** Rules for an advertised host ("" = none) and an allow-list of normalised origins. */
    public HandshakeGuard(String advertisedHost, Set<String> allowedOrigins) {
        this.advertisedHost = advertisedHost == null ? "" : advertisedHost.trim().toLowerCase(Locale.ROOT);
        this.allowedOrigins = allowedOrigins;
    }

    /** True when the upgrade may proceed. {@code loopbackBind}: the socket was accepted on a loopback address. */
    public boolean admits(String host, String origin, int port, boolean loopbackBind) {
        if (host == null || !trusted(port, loopbackBind).contains(host.trim().toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (origin == null || origin.isEmpty()) {
            return true;
        }
        String normalised = origin.trim().toLowerCase(Locale.ROOT);
        if (normalised.endsWith("/")) {
            normalised = normalised.substring(0, normalised.length() - 1);
        }
        return allowedOrigins.contains(normalised);
    }

    private Set<String> trusted(int port, boolean loopbackBind) {
        Set<String> trusted = new HashSet<>();
        if (loopbackBind) {
            for (String h : new String[] {"localhost", "127.0.0.1", "[::1]", "[::ffff:127.0.0.1]"}) {
                trusted.add(h);
                trusted.add(h + ":" + port);
            }
            trusted.add("::1");
            trusted.add("::ffff:127.0.0.1");
        }
        if (!advertisedHost.isEmpty()) {
            trusted.add(advertisedHost);
            trusted.add(advertisedHost + ":" + port);
        }
        return trusted;
    }
}
