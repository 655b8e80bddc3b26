package org.switchboard.synapse.attachments;

import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;

/** The eight {@code attachment_*} verbs (synapse-advanced §3.4), handed to {@link AttachmentService}. */
public final class AttachmentHandler implements VerbHandler {

    private static final Logger LOG = Logger.getLogger(AttachmentHandler.class.getName());

    /** The verbs of §3.4. */
    public static final Set<String> TYPES = Set.of("attachment_begin", "attachment_chunk", "attachment_commit",
            "attachment_abort", "attachment_info", "attachment_read", "attachment_ref", "attachment_gc");

    private final AttachmentService attachments;

    /** Verbs answered by {@code attachments}. */
    public AttachmentHandler(AttachmentService attachments) {
        this.attachments = attachments;
    }

    @Override
    public Set<String> types() {
        return TYPES;
    }

    @Override
    public boolean mutating(String type) {
        return !"attachment_info".equals(type) && !"attachment_read".equals(type);
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(logLine(in.type(), in.sender()));
        }
        attachments.handle(in.connection(), in.sender(), in.type(), in.frame());
    }

    /** What the log shows for an attachment frame: its type and sender, never its fields (§3.3). */
    static String logLine(String type, String sender) {
        return "SYNAPSE " + LogSafe.text(type) + " from " + LogSafe.text(sender) + ": <attachment body redacted>";
    }
}
