package org.switchboard.synapse.mailbox;

import java.util.Set;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** {@code ack} (§8.3): never replies, never errors. */
public final class AckHandler implements VerbHandler {

    private final MailboxService mailbox;

    /** The ack verb over the given mailbox. */
    public AckHandler(MailboxService mailbox) {
        this.mailbox = mailbox;
    }

    @Override
    public Set<String> types() {
        return Set.of("ack");
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        mailbox.ack(in.connection(), in.frame());
    }
}
