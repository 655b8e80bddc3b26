package org.switchboard.synapse.attachments;

import java.util.ArrayList;
import java.util.List;

/**
 * The enabling posture of synapse-advanced §3.1: which required pieces are missing. The store starts
 * only when the list is empty; otherwise every attachment verb answers {@code attachments disabled}.
 */
public interface AttachmentPosture {

    /** Human-readable names of the missing pieces (never secrets); empty when the store may start. */
    List<String> missing();

    /** The pieces the security layers provide (identity binding, message auth, ACL, role grants; see {@link AttachmentSecurity}). */
    interface SecurityPieces {
        /** On a hub without any security layer, every piece is missing. */
        SecurityPieces NONE = new AttachmentSecurity(false, false, 0, false, false, false, false, false);

        /** The missing security pieces. */
        List<String> missing();
    }

    /** The §3.1 check over the hub's own pieces (root, durable journal, connect token) plus the security layers'. */
    static AttachmentPosture of(String attachmentsDir, boolean durableJournal, boolean connectToken,
                                SecurityPieces security) {
        return () -> {
            List<String> missing = new ArrayList<>();
            if (attachmentsDir == null || attachmentsDir.isBlank()) {
                missing.add("attachment root directory (hub.attachments.dir)");
            }
            if (!durableJournal) {
                missing.add("durable journal");
            }
            if (!connectToken) {
                missing.add("connect token (hub.token)");
            }
            missing.addAll(security.missing());
            return List.copyOf(missing);
        };
    }
}
