package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.Set;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.synapse.addressing.Addressing;

/** Validation of structured responses on chat (§7.14); returns the Appendix B refusal sentence or null. */
public final class StructuredResponses {

    static final Set<String> STATUSES = Set.of("acknowledged", "in_progress", "needs_input", "declined", "completed");
    static final Set<String> SCOPES = Set.of("recipient", "operator_commentary");
    private static final String[] FIELDS = {"response_to_seq", "response_status", "response_evidence_scope"};

    private StructuredResponses() {
    }

    /** Null when the chat is not a response or a valid one; else the refusal sentence. */
    public static String validate(JsonObject chat, String responder, Collection<String> roles, Journal journal) {
        int present = 0;
        for (String field : FIELDS) {
            JsonValue value = chat.get(field);
            if (value != null && value != JsonValue.NULL) {
                present++;
            }
        }
        if (present == 0) {
            return null;
        }
        Long seq = JsonFields.integer(chat, "response_to_seq");
        String status = JsonFields.string(chat, "response_status");
        String scope = JsonFields.string(chat, "response_evidence_scope");
        if (present < FIELDS.length || seq == null || seq < 1) {
            return HubStrings.RESPONSE_FIELDS_MISSING;
        }
        if (status == null || !STATUSES.contains(status)) {
            return HubStrings.RESPONSE_STATUS_UNKNOWN;
        }
        if (scope == null || !SCOPES.contains(scope)) {
            return HubStrings.RESPONSE_SCOPE_UNKNOWN;
        }
        if (journal == null) {
            return HubStrings.RESPONSE_NEEDS_JOURNAL;
        }
        JournalEvent referenced = journal.at(seq);
        if (referenced == null || !"chat".equals(referenced.kind())) {
            return HubStrings.RESPONSE_NOT_DURABLE_CHAT;
        }
        String originalSender = JsonFields.string(referenced.payload(), "sender");
        String target = JsonFields.string(chat, "target");
        if (originalSender == null || !originalSender.equals(target)) {
            return HubStrings.RESPONSE_TARGET_MISMATCH;
        }
        String originalTarget = JsonFields.string(referenced.payload(), "target");
        if ("recipient".equals(scope)
                && (originalTarget == null || !Addressing.isRecipient(originalTarget, responder, roles))) {
            return HubStrings.RESPONSE_NOT_ADDRESSEE;
        }
        return null;
    }
}
