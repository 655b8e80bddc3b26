package org.switchboard.container;

/** Whether one shortcut is engaged, and if not, briefly why (null when engaged). */
public record ShortcutStatus(Shortcut shortcut, boolean active, String whyNot) {

    /** {@code name=on} or {@code name=off (why)}, as in the start-up line. */
    @Override
    public String toString() {
        return shortcut.metricName() + (active ? "=on" : "=off (" + whyNot + ")");
    }
}
