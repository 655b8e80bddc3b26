package org.switchboard.redsyn.message;

import java.util.Optional;
import org.switchboard.redsyn.store.GroupedUpdates;

/**
 * Asked by the send path about each accepted request, once its seq is drawn and before its rows are
 * written. The inbox's sealed-request reservations implement it; the message package names the call
 * instead of depending on the inbox, which depends on messages.
 */
public interface AcceptedMessages {

    /** A row to write with request {@code m} ({@code encrypted} when its body is sealed), if it needs one. */
    Optional<GroupedUpdates.Update> reservation(MessageEntity m, boolean encrypted);
}
