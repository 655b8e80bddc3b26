package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import org.switchboard.journal.JournalEvent;

/**
 * Where chats to a seat on another hub ({@code PROJECT/seat@HUB_ID}, synapse-advanced §4.6) leave this
 * hub: validated before anything is stored, journalled with their outbox entry in one append, handed
 * over once committed. Implemented by the cross-hub forwarding feature.
 */
public interface RemoteChats {

    /** The private error text refusing this hub-qualified chat, or null when it may be forwarded. */
    String refusal(String sender, String target, JsonObject frame);

    /** A forward being prepared: its id and the outbox event to journal in the chat's own append. */
    interface Forward {
        String forwardId();

        JournalEvent.Draft outboxEvent();
    }

    /** Prepares the forward of an accepted chat (nothing is stored yet). */
    Forward prepare(String sender, String target, JsonObject frame, long msgId, double timestamp, String clientMsgId,
                    boolean receiptRequested);

    /** The chat and its outbox entry committed at {@code seq}: the first attempt starts. */
    void committed(Forward forward, Long seq);
}
