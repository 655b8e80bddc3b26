package org.switchboard.redsyn.link;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code ips} rule of a link: comma-separated addresses or CIDR blocks (IPv4 or IPv6); empty
 * admits any address. Only literals are accepted, so parsing never looks a name up.
 */
public final class IpAllowList {

    private static final Pattern LITERAL = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private record Block(byte[] network, int prefix) {
    }

    private final String text;
    private final List<Block> blocks;

    private IpAllowList(String text, List<Block> blocks) {
        this.text = text;
        this.blocks = blocks;
    }

    /** Parses a rule; refuses anything that is not an address or CIDR literal. */
    public static IpAllowList parse(String text) {
        if (text == null || text.isBlank()) {
            return new IpAllowList("", List.of());
        }
        List<Block> blocks = new ArrayList<>();
        List<String> normal = new ArrayList<>();
        for (String raw : text.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            String address = entry;
            Integer prefix = null;
            int slash = entry.indexOf('/');
            if (slash >= 0) {
                address = entry.substring(0, slash);
                try {
                    prefix = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + entry + "' has no valid prefix length");
                }
            }
            byte[] bytes = literal(address);
            if (bytes == null) {
                throw new IllegalArgumentException("'" + entry + "' is not an IP address or CIDR block");
            }
            int bits = bytes.length * 8;
            int p = prefix == null ? bits : prefix;
            if (p < 0 || p > bits) {
                throw new IllegalArgumentException("'" + entry + "' has a prefix length outside 0.." + bits);
            }
            blocks.add(new Block(bytes, p));
            normal.add(entry);
        }
        return new IpAllowList(String.join(",", normal), List.copyOf(blocks));
    }

    /** The rule as stored and shown: entries separated by commas, empty for any address. */
    public String text() {
        return text;
    }

    /** True when the rule admits any address. */
    public boolean any() {
        return blocks.isEmpty();
    }

    /** True when {@code address} (a literal; null when unknown) is admitted. */
    public boolean admits(String address) {
        if (blocks.isEmpty()) {
            return true;
        }
        byte[] candidate = address == null ? null : literal(address.startsWith("[") && address.endsWith("]")
                ? address.substring(1, address.length() - 1) : address);
        if (candidate == null) {
            return false;
        }
        for (Block b : blocks) {
            if (b.network().length == candidate.length && samePrefix(b.network(), candidate, b.prefix())) {
                return true;
            }
        }
        return false;
    }

    private static boolean samePrefix(byte[] a, byte[] b, int bits) {
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (b[full] & mask);
    }

    /** The bytes of an IPv4 or IPv6 literal (IPv4-mapped IPv6 becomes IPv4), or null. */
    private static byte[] literal(String address) {
        int zone = address.indexOf('%');
        String a = zone >= 0 ? address.substring(0, zone) : address;
        if (!LITERAL.matcher(a).matches()) {
            return null;
        }
        if (a.indexOf(':') < 0) {
            for (String part : a.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            // a literal (checked above), so this never resolves a name
            return InetAddress.getByName(a).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
