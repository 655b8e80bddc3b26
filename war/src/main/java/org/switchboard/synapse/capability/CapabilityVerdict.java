package org.switchboard.synapse.capability;

import jakarta.json.JsonObject;
import org.switchboard.synapse.idempotency.Mutation;

/**
 * Result of {@code advertise}.
 *
 * @param accepted whether the card was registered
 * @param sentence refusal text (private {@code error}) or the broadcast payload
 * @param card     the projected card (as broadcast), or null
 * @param mutation the frames to send (advertise is never journalled: no events)
 */
public record CapabilityVerdict(boolean accepted, String sentence, JsonObject card, Mutation mutation) {
}
