package org.switchboard.redsyn;

import java.util.List;
import org.switchboard.redsyn.RedsynException;

/** The dated versions of the v1 API and which one a request uses. */
public final class VersionDates {

    /** Every known date, oldest first. */
    public static final List<String> KNOWN = List.of("2026-09-25");

    /** Request and response header. */
    public static final String HEADER = "Redsyn-Version";

    private VersionDates() {
    }

    /** The newest date: what a new organisation is pinned to. */
    public static String latest() {
        return KNOWN.get(KNOWN.size() - 1);
    }

    /**
     * The date a request uses: the header when present (400 listing the known dates when unknown),
     * else the date the caller's organisation was pinned to, else the newest.
     */
    public static String resolve(String header, String pinned) {
        if (header != null && !header.isBlank()) {
            String date = header.trim();
            if (!KNOWN.contains(date)) {
                throw new RedsynException(400, "unknown Redsyn-Version " + date + "; known: " + String.join(", ", KNOWN),
                        java.util.Map.of("known", KNOWN));
            }
            return date;
        }
        if (pinned != null && KNOWN.contains(pinned)) {
            return pinned;
        }
        return latest();
    }
}
