package org.switchboard.synapse.delivery;

import java.util.List;

/** A {@code delivery_request} that passed the shape checks of §2.5 ({@code sender} is the bound name). */
public record DeliveryIntent(String sender, String requestId, String idempotencyKey, String target,
                             String targetIncarnation, String mode, List<String> allowedFallbacks, String taskId,
                             String body, double deadline) {
}
