package org.switchboard.itests.fuzz;

import java.util.Random;

/** Small text helpers of the fuzzer: random text over awkward alphabets, JSON escapes, printable previews. */
final class Strings {

    private static final String ALPHABET = "aZ09 _-/.*?[]{}\"\\:,;'`~!@#$%^&()+=<>|\t\n\r\u0000\u0007\u001b\u007f"
            + "\u00e9\u00df\u4e2d\u6587\u0600\u200b\u2028\ufeff\uffff";

    private Strings() {
    }

    /** {@code length} characters drawn from punctuation, controls, non-ASCII and lone surrogates. */
    static String randomText(Random random, int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int pick = random.nextInt(ALPHABET.length() + 2);
            if (pick == ALPHABET.length()) {
                b.append('\ud800'); // lone high surrogate: not encodable as UTF-8
            } else if (pick == ALPHABET.length() + 1) {
                b.appendCodePoint(0x1F600 + random.nextInt(50));
            } else {
                b.append(ALPHABET.charAt(pick));
            }
        }
        return b.toString();
    }

    /** The JSON escape of one character. */
    static String escape(char c) {
        return switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            default -> String.format("\\u%04x", (int) c);
        };
    }

    /** Text with control and non-ASCII characters shown as escapes, for a report line. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            // ASCII only: a lone surrogate or a control character must not reach the report's output stream
            b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
