package org.switchboard.synapse.chat;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** {@code chat}: hands the frame to {@link ChatService}. */
public final class ChatHandler implements VerbHandler {

    private final ChatService chat;

    /** The chat verb over the given service. */
    public ChatHandler(ChatService chat) {
        this.chat = chat;
    }

    @Override
    public Set<String> types() {
        return Set.of("chat");
    }

    @Override
    public boolean mutating(String type) {
        return true;
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        chat.handle(in);
    }
}
