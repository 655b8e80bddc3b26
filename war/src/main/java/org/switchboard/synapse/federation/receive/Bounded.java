package org.switchboard.synapse.federation.receive;

import java.nio.charset.StandardCharsets;

/** The "bounded printable string" of synapse-advanced §1.2. */
final class Bounded {

    private Bounded() {
    }

    /** Non-empty, at most {@code maxBytes} UTF-8 bytes, no C0 control or DEL, no unpaired surrogate. */
    static boolean printable(String s, int maxBytes) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return s.getBytes(StandardCharsets.UTF_8).length <= maxBytes;
    }
}
