package org.switchboard.redsyn.message;

import java.util.Locale;

/** The four kinds of envelope. */
public enum Kind {
    REQUEST, PROGRESS, REPLY, EVENT;

    /** The wire name ({@code request}, ...). */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind with this wire name, or null. */
    public static Kind fromWire(String text) {
        for (Kind k : values()) {
            if (k.wire().equals(text)) {
                return k;
            }
        }
        return null;
    }

    /** Progress and reply answer a request; they go back to its sender and ignore {@code to}. */
    public boolean answersRequest() {
        return this == PROGRESS || this == REPLY;
    }
}
