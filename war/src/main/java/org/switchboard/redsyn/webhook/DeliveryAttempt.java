package org.switchboard.redsyn.webhook;

/** One prepared webhook POST: where, signed with what, and the delivered envelope. */
public record DeliveryAttempt(long seq, int attempt, String messageId, long agentId, String url, String secret,
                              String body, String version) {

    /** Never prints the secret (or the URL, which may carry a token of the receiver's). */
    @Override
    public String toString() {
        return "delivery of " + messageId + " (attempt " + attempt + ") to agent " + agentId;
    }
}
