package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;

/**
 * One durable outbox entry (synapse-advanced §4.6): the forward as it is sent on every attempt
 * ({@code request}, so retries carry identical content under the same {@code forward_id}), where it
 * stands, and whether the sender is still owed its settlement receipt.
 *
 * @param seq          the origin journal seq of the chat (null when unknown)
 * @param receiptOwed  the settlement receipt has not reached the sender yet
 */
public record ForwardEntry(String forwardId, String peer, String sender, String target, JsonObject request,
                           long msgId, Long seq, String clientMsgId, double created, double expiresAt,
                           boolean notifySender, String state, int attempts, double nextAttemptAt,
                           JsonObject result, String answeringHub, String reasonCode, String detail,
                           boolean receiptOwed) {

    public static final String PENDING = "pending";
    public static final String ACCEPTED = "accepted";
    public static final String DUPLICATE = "duplicate";
    public static final String REFUSED = "refused";
    public static final String EXPIRED = "expired";

    /** A new entry, pending, not attempted yet (due at once). */
    public static ForwardEntry queued(String forwardId, String peer, String sender, String target, JsonObject request,
                                      long msgId, Long seq, String clientMsgId, double created, double expiresAt,
                                      boolean notifySender) {
        return new ForwardEntry(forwardId, peer, sender, target, request, msgId, seq, clientMsgId, created, expiresAt,
                notifySender, PENDING, 0, created, null, null, "", "", false);
    }

    public boolean pending() {
        return PENDING.equals(state);
    }

    /** After a failed attempt: one more attempt counted, the next one due at {@code next}. */
    public ForwardEntry failed(int attemptsNow, double next) {
        return new ForwardEntry(forwardId, peer, sender, target, request, msgId, seq, clientMsgId, created, expiresAt,
                notifySender, state, attemptsNow, next, result, answeringHub, reasonCode, detail, receiptOwed);
    }

    /**
     * Settled in {@code newState}; {@code owed} when the sender still needs the settlement receipt. The
     * request is dropped (null): it is never sent again, and an owed receipt may wait long for its sender.
     */
    public ForwardEntry settled(String newState, int attemptsNow, JsonObject peerResult, String answering, String code,
                                String why, boolean owed) {
        return new ForwardEntry(forwardId, peer, sender, target, null, msgId, seq, clientMsgId, created, expiresAt,
                notifySender, newState, attemptsNow, nextAttemptAt, peerResult, answering, code == null ? "" : code,
                why == null ? "" : why, owed);
    }

    /** The settlement receipt reached the sender. */
    public ForwardEntry notified() {
        return new ForwardEntry(forwardId, peer, sender, target, request, msgId, seq, clientMsgId, created, expiresAt,
                notifySender, state, attempts, nextAttemptAt, result, answeringHub, reasonCode, detail, false);
    }
}
