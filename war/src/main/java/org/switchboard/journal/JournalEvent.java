package org.switchboard.journal;

import jakarta.json.JsonObject;

/** One committed journal event: its global sequence number, kind, JSON payload and append time. */
public record JournalEvent(long seq, String kind, JsonObject payload, double appendedAt) {

    /** An event not yet appended. */
    public record Draft(String kind, JsonObject payload) {
    }
}
