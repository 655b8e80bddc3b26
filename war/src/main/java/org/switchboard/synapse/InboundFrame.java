package org.switchboard.synapse;

import jakarta.json.JsonObject;

/**
 * One inbound frame after the §5 pipeline: decoded, typed, {@code token} stripped, {@code sender}
 * set to the bound name, {@code type} normalised, {@code target} defaulted.
 */
public record InboundFrame(Connection connection, String sender, String type, String target, JsonObject frame,
                           boolean firstBind) {
}
