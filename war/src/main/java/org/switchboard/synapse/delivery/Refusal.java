package org.switchboard.synapse.delivery;

/**
 * A typed refusal: the stable {@code reason_code}, a short secret-free explanation, and the
 * {@code request_id} to echo ({@code ""} when the frame's id was not a valid one).
 */
public record Refusal(String reasonCode, String explanation, String requestId) {

    /** A refusal that echoes nothing. */
    public static Refusal of(String reasonCode, String explanation) {
        return new Refusal(reasonCode, explanation, "");
    }

    /** The same refusal echoing {@code requestId}. */
    public Refusal echoing(String id) {
        return new Refusal(reasonCode, explanation, id == null ? "" : id);
    }
}
