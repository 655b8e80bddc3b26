package org.switchboard.ops.operator;

import jakarta.json.JsonObject;
import org.switchboard.journal.JournalEvent;
import org.switchboard.json.Jsons;

/**
 * The journal record of one operator action ({@value #KIND}): who (JMX or console principal), which
 * operation, on what, and why. Reasons are required for destructive operations, trimmed and bounded;
 * nothing secret is ever passed in (tokens and passwords never reach this class).
 */
public final class OperatorAudit {

    /** Journal kind of an operator action; replay ignores it (it changes no state by itself). */
    public static final String KIND = "operator_action";
    /** Longest reason kept, in characters. */
    public static final int MAX_REASON = 500;
    /** Longest principal kept, in characters. */
    public static final int MAX_PRINCIPAL = 128;

    private OperatorAudit() {
    }

    /** The trimmed reason; refuses a missing or blank one, and one longer than {@link #MAX_REASON}. */
    public static String requireReason(String reason) {
        String trimmed = reason == null ? "" : clean(reason).trim();
        if (trimmed.isEmpty()) {
            throw OperatorRefusal.badRequest("a reason is required");
        }
        if (trimmed.length() > MAX_REASON) {
            throw OperatorRefusal.badRequest("the reason is longer than " + MAX_REASON + " characters");
        }
        return trimmed;
    }

    /** The principal as recorded: control characters removed, bounded, {@code "unknown"} when blank. */
    public static String principal(String principal) {
        String p = principal == null ? "" : clean(principal).trim();
        if (p.isEmpty()) {
            return "unknown";
        }
        return p.length() > MAX_PRINCIPAL ? p.substring(0, MAX_PRINCIPAL) : p;
    }

    /** The journal draft of an action; {@code reason} may be empty for non-destructive ones (a backup). */
    public static JournalEvent.Draft event(String principal, String operation, String target, String reason, double at) {
        return new JournalEvent.Draft(KIND, payload(principal, operation, target, reason, at));
    }

    /** The payload: {@code principal}, {@code operation}, {@code target}, {@code reason}, {@code at}. */
    public static JsonObject payload(String principal, String operation, String target, String reason, double at) {
        return Jsons.PROVIDER.createObjectBuilder()
                .add("principal", principal(principal))
                .add("operation", operation)
                .add("target", target == null ? "" : clean(target))
                .add("reason", reason == null ? "" : clean(reason))
                .add("at", at)
                .build();
    }

    /** Replaces control characters (a reason ends up in logs and consoles) with spaces. */
    private static String clean(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? ' ' : c));
        return b.toString();
    }
}
