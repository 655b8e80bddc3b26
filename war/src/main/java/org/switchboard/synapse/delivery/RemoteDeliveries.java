package org.switchboard.synapse.delivery;

import jakarta.json.JsonObject;
import org.switchboard.synapse.Connection;

/**
 * Where delivery verbs for a seat on another hub leave this hub (synapse-advanced §4.7): a
 * {@code delivery_request} whose target contains {@code @}, and follow-ups naming a forwarded
 * {@code operation_key}. Implemented by the cross-hub forwarding feature.
 */
public interface RemoteDeliveries {

    /** True when the frame is a forwarded one and has been answered (or will be) by this seam. */
    boolean take(Connection connection, String sender, String type, JsonObject frame);
}
