package org.switchboard.logging;

/**
 * Makes a client-supplied value safe to put in a log line: control characters become visible
 * escapes, so a name or field cannot start a forged line or put NUL bytes in the log, and long
 * values are cut. Used by every log call of either protocol that includes something a client chose.
 */
public final class LogSafe {

    /** Characters of a value kept before it is cut. */
    public static final int MAX_CHARS = 200;

    private LogSafe() {
    }

    /**
     * {@code String.valueOf(value)} with {@code \}, CR, LF and TAB written as {@code \\ \r \n \t}; every other
     * C0 or C1 control, DEL and the Unicode line and paragraph separators as {@code \}{@code uXXXX}; cut after
     * {@link #MAX_CHARS} characters with a note of how many were left out.
     */
    public static String text(Object value) {
        String s = String.valueOf(value);
        int kept = Math.min(s.length(), MAX_CHARS);
        StringBuilder out = null;
        for (int i = 0; i < kept; i++) {
            char c = s.charAt(i);
            String escape = escape(c);
            if (escape != null && out == null) {
                out = new StringBuilder(kept + 16).append(s, 0, i);
            }
            if (out != null) {
                if (escape != null) {
                    out.append(escape);
                } else {
                    out.append(c);
                }
            }
        }
        if (out == null) {
            if (kept == s.length()) {
                return s;
            }
            out = new StringBuilder(kept + 16).append(s, 0, kept);
        }
        if (kept < s.length()) {
            out.append("...(+").append(s.length() - kept).append(" chars)");
        }
        return out.toString();
    }

    /**
     * A stand-in for {@code failure} to log in its place: same type name, stack and causes, with every
     * message passed through {@link #text} (a message may quote what a client sent). Null stays null.
     */
    public static Throwable failure(Throwable failure) {
        return failure(failure, 0);
    }

    private static Throwable failure(Throwable failure, int depth) {
        if (failure == null) {
            return null;
        }
        Throwable cause = failure.getCause() == failure || depth >= MAX_CAUSES ? null : failure(failure.getCause(), depth + 1);
        String message = failure.getMessage();
        Throwable copy = new Escaped(failure.getClass().getName() + (message == null ? "" : ": " + text(message)), cause);
        copy.setStackTrace(failure.getStackTrace());
        return copy;
    }

    private static final int MAX_CAUSES = 16;

    /** A logged failure: prints as the original's type and escaped message. */
    private static final class Escaped extends Throwable {
        private static final long serialVersionUID = 1L;

        Escaped(String description, Throwable cause) {
            super(description, cause, false, true);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    private static String escape(char c) {
        switch (c) {
            case '\\':
                return "\\\\";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                    return String.format("\\u%04x", (int) c);
                }
                return null;
        }
    }
}
