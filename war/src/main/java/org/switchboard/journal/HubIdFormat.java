package org.switchboard.journal;

import java.util.HexFormat;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/** The shape of a generated hub id (synapse-core §3.3): {@code syn-} followed by 8 lowercase hex digits. */
public final class HubIdFormat {

    /** Prefix every generated id carries. */
    public static final String PREFIX = "syn-";
    private static final Pattern GENERATED = Pattern.compile("syn-[0-9a-f]{8}");

    private HubIdFormat() {
    }

    /** A fresh random id such as {@code syn-1a2b3c4d}. */
    public static String generate(RandomGenerator random) {
        byte[] bytes = new byte[4];
        random.nextBytes(bytes);
        return PREFIX + HexFormat.of().formatHex(bytes);
    }

    /** True when {@code id} has exactly the generated shape. */
    public static boolean isGenerated(String id) {
        return id != null && GENERATED.matcher(id).matches();
    }

    /**
     * The id to use: a non-blank configured value wins; otherwise the stored one if it has the
     * generated shape; otherwise null, meaning "generate and store one".
     */
    public static String choose(String configured, String stored) {
        if (configured != null && !configured.isBlank()) {
            return configured.strip();
        }
        return isGenerated(stored) ? stored : null;
    }
}
