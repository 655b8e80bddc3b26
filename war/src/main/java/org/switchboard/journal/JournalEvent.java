package org.switchboard.journal;

import jakarta.json.JsonObject;

/** One committed journal event: its global sequence number, kind, JSON payload and append time. */
public record JournalEvent(long seq, String kind, JsonObject payload, double appendedAt) {

    /**
     * An event not yet appended. {@code json}, when not null, is the caller's own compact encoding of
     * {@code payload} ({@code payload.toString()}), stored as is: a caller that needs the text anyway
     * (the chat path sends it) saves serialising the same object twice.
     */
    public record Draft(String kind, JsonObject payload, String json) {

        /** A draft whose payload the journal encodes itself. */
        public Draft(String kind, JsonObject payload) {
            this(kind, payload, null);
        }
    }
}
