package org.switchboard.synapse.governance;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The eleven gates of {@code identity_pin_reclaim} (synapse-advanced §7.1) in their order, first
 * failure wins: request fields, self-reclaim, the always-enforced ACL, proven requester, durable
 * journal, the pin and its key id, then owner liveness and lease (skipped with {@code break_glass}).
 * The order keeps pin, online and lease state hidden from a requester the ACL refuses.
 */
public final class PinReclaimGates {

    /** Longest operator reason accepted, in characters. */
    public static final int MAX_REASON = 500;

    static final String PIN_NAME_REQUIRED = "pin name is required";
    static final String EXPECTED_KEY_REQUIRED = "expected key id is required";
    static final String REASON_REQUIRED = "a non-empty operator reason is required";
    static final String REASON_TOO_LONG = "the operator reason is longer than " + MAX_REASON + " characters";
    static final String OWN_IDENTITY = "an operator cannot reclaim its own live identity";
    static final String NOT_AUTHORISED = "not authorised: ACL permission identity-pin-reclaim on agent:";
    static final String NOT_PROVEN = "the requester's identity is not proven (register with a pinned key, or under the"
            + " operator trust bundle with hub.require-identity-binding)";
    static final String NO_JOURNAL = "a durable journal is required for governed verbs";
    static final String NOT_PINNED = "no identity pin is held for that name";
    static final String KEY_DIFFERS = "the pin's key id is not expected_key_id; nothing was changed";
    static final String OWNER_ONLINE = "the pin owner is connected; send break_glass: true to evict it";
    static final String LEASE_LIVE = "the name's ownership lease has not lapsed; wait for the offline TTL or send break_glass: true";

    /** What the gates need to know about the hub; each answer is read only when its gate is reached. */
    public interface Facts {
        /** The always-enforced ACL grant {@code identity-pin-reclaim} on {@code agent:<pinName>}. */
        boolean aclAllows(String requester, String pinName);

        /** §6.5 "proven" requester. */
        boolean proven(String requester);

        /** True when the hub journals durably. */
        boolean durableJournal();

        /** The key id the name is pinned to, or null. */
        String pinnedKeyId(String name);

        /** True when the name has a live bound socket. */
        boolean online(String name);

        /** True when the name's ownership lease has not lapsed under the offline TTL. */
        boolean leaseLive(String name);
    }

    /** The request fields; a field of the wrong JSON type reads as absent. */
    public record Request(String pinName, String expectedKeyId, String reason, boolean breakGlass) {

        /** Reads a frame; {@code break_glass} counts only as the literal {@code true}. */
        public static Request of(JsonObject frame) {
            return new Request(text(frame, "pin_name"), text(frame, "expected_key_id"), text(frame, "reason"),
                    frame.get("break_glass") == JsonValue.TRUE);
        }
    }

    private PinReclaimGates() {
    }

    /** Null when every gate passes; else the refusal text of the first gate that fails. */
    public static String refusal(String requester, Request r, Facts facts) {
        if (r.pinName() == null || r.pinName().isBlank()) {
            return PIN_NAME_REQUIRED;
        }
        if (r.expectedKeyId() == null || r.expectedKeyId().isBlank()) {
            return EXPECTED_KEY_REQUIRED;
        }
        if (r.reason() == null || r.reason().isBlank()) {
            return REASON_REQUIRED;
        }
        if (r.reason().length() > MAX_REASON) {
            return REASON_TOO_LONG;
        }
        if (r.pinName().equals(requester)) {
            return OWN_IDENTITY;
        }
        if (!facts.aclAllows(requester, r.pinName())) {
            return NOT_AUTHORISED + r.pinName();
        }
        if (!facts.proven(requester)) {
            return NOT_PROVEN;
        }
        if (!facts.durableJournal()) {
            return NO_JOURNAL;
        }
        String pinned = facts.pinnedKeyId(r.pinName());
        if (pinned == null) {
            return NOT_PINNED;
        }
        if (!pinned.equals(r.expectedKeyId())) {
            return KEY_DIFFERS;
        }
        if (!r.breakGlass()) {
            if (facts.online(r.pinName())) {
                return OWNER_ONLINE;
            }
            if (facts.leaseLive(r.pinName())) {
                return LEASE_LIVE;
            }
        }
        return null;
    }

    static String text(JsonObject frame, String key) {
        return frame.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
