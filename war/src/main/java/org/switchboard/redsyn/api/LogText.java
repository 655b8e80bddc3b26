package org.switchboard.redsyn.api;

/** Text for the server log that a client may have chosen: control characters escaped, length bounded. */
final class LogText {

    private static final int MAX_CHARS = 500;
    private static final int MAX_CAUSES = 8;
    private static final int MAX_FRAMES = 12;

    private LogText() {
    }

    /** {@code s} on one line: backslash, control characters and line separators as {@code \\uXXXX}, at most 500 characters. */
    static String escape(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), MAX_CHARS) + 16);
        for (int i = 0; i < s.length(); i++) {
            if (sb.length() >= MAX_CHARS) {
                sb.append("...(").append(s.length()).append(" chars)");
                break;
            }
            char c = s.charAt(i);
            if (c == '\\') {
                sb.append("\\\\");
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * A stack trace whose messages are escaped (a message can quote the request): each cause's class and
     * message on its own line, then its top frames.
     */
    static String trace(Throwable e) {
        StringBuilder sb = new StringBuilder();
        int causes = 0;
        for (Throwable t = e; t != null && causes < MAX_CAUSES; t = t.getCause() == t ? null : t.getCause(), causes++) {
            sb.append(causes == 0 ? "" : "\ncaused by: ").append(t.getClass().getName()).append(": ").append(escape(t.getMessage()));
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
                sb.append("\n\tat ").append(frames[i]);
            }
            if (frames.length > MAX_FRAMES) {
                sb.append("\n\t... ").append(frames.length - MAX_FRAMES).append(" more");
            }
        }
        return sb.toString();
    }
}
