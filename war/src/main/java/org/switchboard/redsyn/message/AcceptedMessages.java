package org.switchboard.redsyn.message;

/**
 * Told by the send path about each accepted message, once it is persisted and inside the send's
 * transaction. The inbox's sealed-request reservations implement it; the message package names the
 * call instead of depending on the inbox, which depends on messages.
 */
public interface AcceptedMessages {

    /** {@code m} was persisted; {@code encrypted} when its body is sealed. */
    void onAccepted(MessageEntity m, boolean encrypted);
}
