package org.switchboard.redsyn.plan;

import java.util.Locale;

/**
 * The limits of a plan (the document's Límites table). {@code -1} means unlimited. The plan that
 * applies to an organisation is the plan of the person who created it.
 */
public record Plan(String name, long messagesPerDay, long filesPendingBytes, long maxTtlSeconds,
                   long agents, long links, long webhooks, int maxBodyBytes, int maxZipBytes) {

    /** Body limit of every plan: 64 KB. */
    public static final int BODY_BYTES = 64 * 1024;
    /** Compressed files limit of every plan: 5 MB. */
    public static final int ZIP_BYTES = 5 * 1024 * 1024;

    private static final long DAY = 86_400L;
    private static final long MB = 1024L * 1024L;

    public static final Plan FREE = new Plan("free", 1_000, 50 * MB, DAY, 5, 1, 1, BODY_BYTES, ZIP_BYTES);
    public static final Plan PRO = new Plan("pro", 50_000, 2048 * MB, 7 * DAY, 100, 10, 20, BODY_BYTES, ZIP_BYTES);
    public static final Plan ENTERPRISE = new Plan("enterprise", -1, 20 * 1024 * MB, 30 * DAY, -1, -1, -1, BODY_BYTES, ZIP_BYTES);

    /** The built-in plan with this name (case-insensitive), or null. */
    public static Plan named(String name) {
        if (name == null) {
            return null;
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "free" -> FREE;
            case "pro" -> PRO;
            case "enterprise" -> ENTERPRISE;
            default -> null;
        };
    }

    /** The TTL a message gets: the asked one (or the default), never above the plan's cap. */
    public long capTtl(Long asked, long defaultTtl) {
        long ttl = asked == null ? defaultTtl : asked;
        return Math.min(ttl, maxTtlSeconds);
    }
}
