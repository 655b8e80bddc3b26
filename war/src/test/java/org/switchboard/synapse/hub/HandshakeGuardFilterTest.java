package org.switchboard.synapse.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HandshakeGuardFilterTest {

    private final AtomicInteger status = new AtomicInteger();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final AtomicBoolean passedOn = new AtomicBoolean();

    private static HttpServletRequest request(Map<String, String> headers) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getHeader" -> headers.get((String) args[0]);
                    default -> null;
                });
    }

    private HttpServletResponse response() {
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
        return (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "setStatus" -> status.set((Integer) args[0]);
                        case "getOutputStream" -> {
                            return out;
                        }
                        default -> {
                        }
                    }
                    return null;
                });
    }

    private final FilterChain chain = (req, res) -> passedOn.set(true);

    @Test
    void anUpgradeAfterTheFilterWasTakenDownIsRefusedBeforeItReachesTheContainer() throws Exception {
        HandshakeGuardFilter filter = new HandshakeGuardFilter();
        filter.init();
        filter.destroy();

        filter.doFilter(request(Map.of("Upgrade", "websocket", "Host", "127.0.0.1")), response(), chain);

        assertFalse(passedOn.get(), "the upgrade must not reach the WebSocket container while the hub stops");
        assertEquals(503, status.get());
        assertEquals("hub stopping\n", body.toString(StandardCharsets.UTF_8));
    }

    @Test
    void plainRequestsStillPassWhileStopping() throws Exception {
        HandshakeGuardFilter filter = new HandshakeGuardFilter();
        filter.destroy();

        filter.doFilter(request(Map.of("Host", "127.0.0.1")), response(), chain);

        assertTrue(passedOn.get(), "only upgrades are refused; requests in flight finish");
        assertEquals(0, status.get());
    }

    @Test
    void aClientThatLeftDuringTheUpgradeIsNoErrorButAServletFailureStillIs() throws Exception {
        FilterChain closed = (req, res) -> {
            throw new java.io.IOException("Connection is closed");
        };
        HandshakeGuardFilter.upgrade(closed, request(Map.of("Upgrade", "websocket")), response());

        FilterChain broken = (req, res) -> {
            throw new jakarta.servlet.ServletException("endpoint failed");
        };
        org.junit.jupiter.api.Assertions.assertThrows(jakarta.servlet.ServletException.class,
                () -> HandshakeGuardFilter.upgrade(broken, request(Map.of("Upgrade", "websocket")), response()));
    }
}
