package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import jakarta.servlet.ServletRequest;
import java.lang.reflect.Proxy;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServletChannelsTest {

    private final SocketChannel channel = SocketChannel.open();

    ServletChannelsTest() throws Exception {
    }

    @AfterEach
    void close() throws Exception {
        channel.close();
    }

    /** The shape of Payara's request facade, as far as the path to the channel goes. */
    public static final class Facade {
        final Object next;

        Facade(Object next) {
            this.next = next;
        }

        public Object getUnwrappedCoyoteRequest() {
            return new Step("getCoyoteRequest", next);
        }
    }

    /** One step that answers the getters the path asks for next. */
    public static final class Step {
        private final String name;
        private final Object next;

        Step(String name, Object next) {
            this.name = name;
            this.next = next;
        }

        public Object getCoyoteRequest() {
            return name.equals("getCoyoteRequest") ? new Step("getConnection", next) : null;
        }

        public Object getConnection() {
            return new Step("getChannel", next);
        }

        public Object getChannel() {
            return next;
        }
    }

    @Test
    void followsPayarasGettersDownToTheChannel() {
        assertSame(channel, ServletChannels.follow(new Facade(channel)));
    }

    @Test
    void aMissingStepOrAnotherKindOfChannelGivesNull() {
        assertNull(ServletChannels.follow(new Object()));
        assertNull(ServletChannels.follow(new Facade(null)));
        assertNull(ServletChannels.follow(new Facade("not a channel")));
    }

    @Test
    void aRequestOfAnotherContainerGivesNull() {
        ServletRequest other = (ServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isAsyncStarted" -> false;
                    case "getProtocol" -> "HTTP/1.1";
                    default -> null;
                });
        assertNull(ServletChannels.of(other));
        assertNull(ServletChannels.of(null));
    }

    @Test
    void anHttp2RequestIsNotWatched() {
        ServletRequest h2 = (ServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isAsyncStarted" -> false;
                    case "getProtocol" -> "HTTP/2.0";
                    default -> throw new AssertionError("no further look: " + method.getName());
                });
        assertNull(ServletChannels.of(h2));
    }
}
