package org.switchboard.journal;

import jakarta.json.JsonObject;

/** One committed journal event: its global sequence number, kind, JSON payload and append time. */
public record JournalEvent(long seq, String kind, JsonObject payload, double appendedAt) {

    /**
     * An event not yet appended. {@code json}, when not null, is the payload's compact JSON object text
     * as the caller already has it, stored as is, and {@code payload} may then be null: the chat path
     * writes that text once and sends the same text, so no object is built or serialised twice.
     */
    public record Draft(String kind, JsonObject payload, String json) {

        /** A draft whose payload the journal encodes itself. */
        public Draft(String kind, JsonObject payload) {
            this(kind, payload, null);
        }
    }
}
