package org.switchboard.journal;

import jakarta.json.JsonObject;

/**
 * A receipt notification waiting to reach its sender (synapse-core §7.11): committed with the
 * journal event that produced it, retried in order whenever the sender binds a socket.
 */
public record OutboxRow(String notificationId, long messageSeq, String phase, String sender,
                        JsonObject frame, int attempts, boolean delivered) {
}
