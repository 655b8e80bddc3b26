package org.switchboard.synapse.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.container.ContainerSeam;
import org.switchboard.container.ContainerShortcuts;
import org.switchboard.container.PortableShortcuts;

/**
 * A hub that refuses to serve closes each socket with 1008, but only after {@code onOpen} returned: a
 * close made inside it, while the container still completes the upgrade, left the container's read
 * callback on a recycled request, which died with a NullPointerException when the hub stopped (issue 19).
 */
class SynapseEndpointRefusalTest {

    @Test
    void aRefusingHubClosesTheSocketAfterOnOpenReturned() {
        List<Runnable> later = new ArrayList<>();
        List<String> calls = new ArrayList<>();
        SynapseEndpoint endpoint = new SynapseEndpoint();
        endpoint.runtime = new SynapseRuntime() {
            @Override
            public boolean refusesToServe() {
                return true;
            }

            @Override
            public void afterOpen(Runnable action) {
                later.add(action);
            }
        };
        endpoint.seam = new ContainerSeam() {
            @Override
            public ContainerShortcuts shortcuts() {
                return new PortableShortcuts("unit test");
            }
        };
        Session session = (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> {
                    calls.add(method.getName() + (args != null && args.length == 1 && args[0] instanceof CloseReason r
                            ? " " + r.getCloseCode().getCode() : ""));
                    return null;
                });

        endpoint.onOpen(session, null);
        assertEquals(List.of(), calls, "the socket was touched inside onOpen");
        assertEquals(1, later.size());
        later.get(0).run();
        assertEquals(List.of("close 1008"), calls);
    }
}
