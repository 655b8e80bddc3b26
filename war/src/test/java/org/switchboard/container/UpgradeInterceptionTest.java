package org.switchboard.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpgradeInterceptionTest {

    /** Stands in for the WebSocket container's upgrade handler: keeps the connection it is given. */
    public static class ContainerHandler implements HttpUpgradeHandler {
        WebConnection connection;
        boolean destroyed;

        public ContainerHandler() {
        }

        @Override
        public void init(WebConnection connection) {
            this.connection = connection;
        }

        @Override
        public void destroy() {
            destroyed = true;
        }
    }

    /** A handler the interception cannot create itself (no no-argument constructor). */
    public static final class Unbuildable extends ContainerHandler {
        public Unbuildable(String unused) {
        }
    }

    /** A connection that is only compared by identity. */
    private record Socket(String name) implements WebConnection {
        @Override
        public ServletInputStream getInputStream() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ServletOutputStream getOutputStream() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    /** A request whose upgrade instantiates the handler class, as the servlet container does; records what it made. */
    private static HttpServletRequest containerRequest(List<HttpUpgradeHandler> made) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                    if (method.getName().equals("upgrade")) {
                        Class<?> type = (Class<?>) args[0];
                        HttpUpgradeHandler handler = type == Unbuildable.class ? new Unbuildable("container")
                                : (HttpUpgradeHandler) type.getDeclaredConstructor().newInstance();
                        made.add(handler);
                        return handler;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void theServletContainerRunsTheInterceptionAndTheWebSocketContainerGetsItsOwnHandlerWithTheNewConnection() throws Exception {
        List<HttpUpgradeHandler> made = new ArrayList<>();
        Socket socket = new Socket("socket");
        Socket transformed = new Socket("gated");
        List<String> failures = new ArrayList<>();
        HttpServletRequest wrapped = UpgradeInterception.wrap(containerRequest(made),
                c -> c == socket ? transformed : null, failures::add, (request, handler) -> false);

        ContainerHandler inner = wrapped.upgrade(ContainerHandler.class);

        assertEquals(1, made.size(), "the servlet container created one handler: the interception");
        UpgradeInterception outer = assertInstanceOf(UpgradeInterception.class, made.get(0));
        outer.init(socket);
        assertSame(transformed, inner.connection, "the WebSocket container's handler reads the transformed connection");
        outer.destroy();
        assertTrue(inner.destroyed);
        assertTrue(failures.isEmpty());
    }

    @Test
    void aHandlerItCannotCreateIsLeftToTheContainerAndReported() throws Exception {
        List<HttpUpgradeHandler> made = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        HttpServletRequest wrapped = UpgradeInterception.wrap(containerRequest(made), c -> null, failures::add,
                (request, handler) -> false);

        Unbuildable handler = wrapped.upgrade(Unbuildable.class);

        assertEquals(List.of(handler), made, "the container's own upgrade, unintercepted");
        assertNull(handler.connection);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains(Unbuildable.class.getName()), failures.get(0));
    }

    @Test
    void aDirectInstallLeavesTheContainerNothingToCreate() throws Exception {
        List<HttpUpgradeHandler> made = new ArrayList<>();
        List<HttpUpgradeHandler> installed = new ArrayList<>();
        HttpServletRequest container = containerRequest(made);
        Socket socket = new Socket("socket");
        Socket transformed = new Socket("gated");
        HttpServletRequest wrapped = UpgradeInterception.wrap(container, c -> c == socket ? transformed : null,
                why -> { }, (request, handler) -> {
                    assertSame(container, request, "the container's request, not the wrapper");
                    return installed.add(handler);
                });

        ContainerHandler inner = wrapped.upgrade(ContainerHandler.class);

        assertTrue(made.isEmpty(), "the container created no handler");
        UpgradeInterception outer = assertInstanceOf(UpgradeInterception.class, installed.get(0));
        outer.init(socket);
        assertSame(transformed, inner.connection, "the installed interception hands the transformed connection on");
    }
}
