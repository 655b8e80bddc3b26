package org.switchboard.synapse.posture;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.switchboard.synapse.SynapseSettings;

/**
 * The off-loopback posture guard of synapse-core §2.4: a hub listening beyond loopback must not
 * run without a connect token, with {@code /metrics} open without a metrics token, or with a token
 * but no TLS (the token would cross the network in clear text), unless the operator explicitly
 * overrides with {@code hub.allow-insecure-bind=true}. Plain rule; no I/O, no DNS.
 */
public final class BindPosture {

    /** How the refusal names the missing TLS: either of the two ways the hub counts TLS as present. */
    public static final String TLS = "TLS (run-hub's HUB_TLS_KEYSTORE, which sets hub.tls-native, or hub.tls-terminated-by-proxy=true)";

    private BindPosture() {
    }

    /**
     * The configuration keys whose absence forbids serving on {@code bind} when TLS is not in place;
     * see {@link #missingSettings(String, boolean, SynapseSettings, boolean)}.
     */
    public static List<String> missingSettings(String bind, boolean allowInsecureBind, SynapseSettings settings) {
        return missingSettings(bind, allowInsecureBind, settings, false);
    }

    /**
     * The configuration keys whose absence forbids serving on {@code bind}; empty when the hub may
     * serve (loopback bind, override, or everything in place). {@code tls} is true when the listener
     * serves TLS itself or a proxy in front of it is declared to terminate TLS.
     */
    public static List<String> missingSettings(String bind, boolean allowInsecureBind, SynapseSettings settings,
                                               boolean tls) {
        List<String> missing = new ArrayList<>(3);
        if (allowInsecureBind || isLoopback(bind)) {
            return missing;
        }
        if (!settings.secured()) {
            missing.add("hub.token");
        } else if (!tls) {
            missing.add(TLS); // a token sent over plain ws:// off loopback is readable by anyone on the path
        }
        if (settings.metricsEnabled() && (settings.metricsToken() == null || settings.metricsToken().isEmpty())) {
            missing.add("hub.metrics-token");
        }
        return missing;
    }

    /** The operator-facing refusal naming the bind address and the missing settings (never a value). */
    public static String refusal(String bind, List<String> missing) {
        return "SYNAPSE refuses to serve: bound off loopback (" + bind + ") without " + String.join(" and ", missing)
                + (missing.contains("hub.metrics-token") ? " (or set hub.metrics-enabled=false)" : "")
                + "; set the missing setting(s), bind 127.0.0.1, or override with hub.allow-insecure-bind=true";
    }

    /**
     * True for {@code localhost} and loopback IP literals ({@code 127.0.0.0/8}, {@code ::1},
     * IPv4-mapped loopback, optionally bracketed). Everything else, including bind-all addresses,
     * other host names and an empty value, counts as off loopback (fail closed).
     */
    public static boolean isLoopback(String bind) {
        if (bind == null) {
            return false;
        }
        String host = bind.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("localhost")) {
            return true;
        }
        if (!isIpLiteral(host)) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress(); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isIpLiteral(String host) {
        if (host.isEmpty()) {
            return false;
        }
        if (host.indexOf(':') >= 0) {
            for (int i = 0; i < host.length(); i++) {
                char c = host.charAt(i);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                    return false;
                }
            }
            return true;
        }
        String[] octets = host.split("\\.", -1);
        if (octets.length != 4) {
            return false;
        }
        for (String octet : octets) {
            if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }
}
