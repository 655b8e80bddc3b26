package org.switchboard.synapse.delivery;

import java.util.Map;
import org.switchboard.synapse.Connection;

/** A live recipient session (§2.2 step 7): the socket, the token's digest and the advertised capabilities. */
public record DeliverySession(String name, Connection connection, String incarnation, Map<String, String> capabilities) {
}
