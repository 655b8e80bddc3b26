package org.switchboard.synapse.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** §2.6: the first of {@code [mode] + allowed_fallbacks} the recipient advertised wins, with its quality. */
public final class ModeSelection {

    /** The chosen mode and the quality the recipient advertised for it. */
    public record Selected(String mode, String quality) {
    }

    private ModeSelection() {
    }

    /** The selection, or null when the recipient advertised none of the candidates. */
    public static Selected select(String mode, List<String> fallbacks, Map<String, String> capabilities) {
        List<String> candidates = new ArrayList<>();
        candidates.add(mode);
        candidates.addAll(fallbacks);
        for (String candidate : candidates) {
            String quality = capabilities.get(candidate);
            if (quality != null) {
                return new Selected(candidate, quality);
            }
        }
        return null;
    }

    /** True for the task-control modes that need the authorisation of §2.7. */
    public static boolean taskControl(String mode) {
        return "interrupt".equals(mode) || "steer".equals(mode);
    }
}
