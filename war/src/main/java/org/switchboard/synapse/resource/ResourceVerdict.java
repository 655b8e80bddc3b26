package org.switchboard.synapse.resource;

import org.switchboard.synapse.idempotency.Mutation;

/**
 * Result of a resource offer.
 *
 * @param accepted whether the offer was recorded
 * @param sentence refusal text (private {@code error}) or the broadcast payload
 * @param offer    the recorded offer, or null
 * @param mutation the {@code resource} event (when accepted) and the frames to send
 */
public record ResourceVerdict(boolean accepted, String sentence, ResourceOffer offer, Mutation mutation) {
}
