package org.switchboard.redsyn.webhook;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import org.switchboard.redsyn.RedsynException;

/**
 * The document's rule for a webhook URL: {@code https} with a public host name. IP literals,
 * {@code localhost} and private-network names are refused. Tests may allow {@code http://127.0.0.1:<port>}.
 */
public final class WebhookUrls {

    /** The document's wording, the start of every refusal. */
    static final String RULE = "url must be https with a public host name";

    /** Suffixes of names that only resolve inside a private network (RFC 6761, 6762, 8375 and common practice). */
    private static final Set<String> PRIVATE_SUFFIXES = Set.of("localhost", "local", "localdomain", "internal",
            "intranet", "lan", "home", "corp", "private", "home.arpa", "test", "invalid", "example", "onion", "arpa");

    private static final int MAX_LENGTH = 2000;

    private WebhookUrls() {
    }

    /** The URL when acceptable, else a 422 naming what is wrong. */
    public static URI check(String url, boolean allowLoopbackHttp) {
        if (url == null || url.isBlank()) {
            throw RedsynException.unprocessable("url is required: " + RULE);
        }
        if (url.length() > MAX_LENGTH) {
            throw RedsynException.unprocessable(RULE + " (and at most " + MAX_LENGTH + " characters)");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw RedsynException.unprocessable(RULE + "; this is not a URL");
        }
        if (!uri.isAbsolute() || uri.isOpaque() || uri.getRawAuthority() == null) {
            throw RedsynException.unprocessable(RULE + "; this is not an absolute URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw RedsynException.unprocessable(RULE + "; credentials in the URL are not accepted");
        }
        if (uri.getRawFragment() != null) {
            throw RedsynException.unprocessable(RULE + "; a fragment is not accepted");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (allowLoopbackHttp && isLoopbackHttp(uri, scheme)) {
            return uri;
        }
        if (!scheme.equals("https")) {
            throw RedsynException.unprocessable(RULE + "; " + scheme + " is not https");
        }
        String host = uri.getHost() != null ? uri.getHost() : authorityHost(uri.getRawAuthority());
        if (host.isEmpty()) {
            throw RedsynException.unprocessable(RULE + "; it names no host");
        }
        String problem = hostProblem(host);
        if (problem != null) {
            throw RedsynException.unprocessable(RULE + "; " + problem);
        }
        return uri;
    }

    /** Why a host is not a public host name, or null when it is one. */
    static String hostProblem(String rawHost) {
        String host = rawHost.toLowerCase(Locale.ROOT);
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        if (host.startsWith("[") || host.contains(":") || isIpv4Like(host)) {
            return host + " is an IP address, not a host name";
        }
        if (!host.contains(".")) {
            return host + " is not a public host name";
        }
        for (String suffix : PRIVATE_SUFFIXES) {
            if (host.equals(suffix) || host.endsWith("." + suffix)) {
                return host + " is a private or reserved name";
            }
        }
        String tld = host.substring(host.lastIndexOf('.') + 1);
        if (!tld.chars().anyMatch(Character::isLetter)) {
            return host + " is not a public host name";
        }
        return null;
    }

    /** Dotted numbers in any form Java's resolver or a browser would read as an address (1.2.3.4, 0x7f.1, 2130706433). */
    private static boolean isIpv4Like(String host) {
        for (String part : host.split("\\.", -1)) {
            if (part.isEmpty() || !(part.matches("[0-9]+") || part.matches("0x[0-9a-f]*"))) {
                return false;
            }
        }
        return true;
    }

    /** The host part of an authority that {@link URI} would not parse as a host name (e.g. {@code 2130706433:443}). */
    private static String authorityHost(String authority) {
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            return close < 0 ? authority : authority.substring(0, close + 1);
        }
        int colon = authority.lastIndexOf(':');
        return colon < 0 ? authority : authority.substring(0, colon);
    }

    /**
     * True when a resolved address is one a public host name may point at: not loopback, private
     * (10/8, 172.16/12, 192.168/16, fc00::/7), link-local, CGNAT (100.64/10), unspecified or multicast.
     * Checked at delivery time, since a public name can still resolve to an internal address.
     */
    public static boolean publicAddress(java.net.InetAddress address) {
        if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (b.length == 4) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 && !(first == 100 && second >= 64 && second < 128) && !(first == 169 && second == 254)
                    && first < 224;
        }
        return (b[0] & 0xfe) != 0xfc; // fc00::/7, unique local
    }

    /** True when {@code url} is the loopback exception the test knob allows. */
    public static boolean isLoopbackHttp(String url) {
        try {
            URI uri = new URI(url);
            return uri.getScheme() != null && isLoopbackHttp(uri, uri.getScheme().toLowerCase(Locale.ROOT));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** The test knob's one exception: plain http to 127.0.0.1 with an explicit port. */
    private static boolean isLoopbackHttp(URI uri, String scheme) {
        return scheme.equals("http") && "127.0.0.1".equals(uri.getHost()) && uri.getPort() > 0;
    }
}
