package org.switchboard.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seam's choice and its portable path. Whether Payara's shortcuts engage on the pinned Payara is
 * checked against the real container by {@code itests/ops/ContainerShortcutsIT}.
 */
class ContainerShortcutsTest {

    private static final List<ClassLoader> THIS_JVM = List.of(ContainerShortcutsTest.class.getClassLoader());

    /** Method names called on the proxies below (a portable path must leave container objects alone). */
    private final List<String> calls = new ArrayList<>();
    private final Map<String, Object> userProperties = new HashMap<>();

    private <T> T recording(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            calls.add(method.getName());
            return switch (method.getName()) {
                case "getUserProperties" -> userProperties;
                case "getProtocol" -> "HTTP/1.1";
                case "isAsyncStarted" -> false;
                case "getNegotiatedExtensions" -> List.of();
                default -> null;
            };
        }));
    }

    @Test
    void offTakesThePortablePathForEveryShortcut() throws Exception {
        ContainerShortcuts off = ContainerSeam.select("off", THIS_JVM);
        Session session = recording(Session.class);
        ServletResponse response = recording(ServletResponse.class);
        ServletRequest request = recording(ServletRequest.class);
        HttpServletRequest upgrade = recording(HttpServletRequest.class);
        IdleTimerBypass timer = new IdleTimerBypass(Thread::new);
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try {
            assertFalse(off.replaceSessionTimer(session, timer));
            assertNull(off.rawFrames(session));
            assertFalse(off.resizeWriteBuffer(response, 512));
            assertNull(off.quietContext());
            assertSame(before, Thread.currentThread().getContextClassLoader(), "the context loader is left alone");
            off.restoreContext(null);
            assertSame(before, Thread.currentThread().getContextClassLoader());
            assertNull(off.channel(request));
            assertSame(upgrade, off.interceptUpgrade(upgrade, c -> c));
        } finally {
            timer.shutdownNow();
        }
        assertTrue(calls.isEmpty(), "no container object was touched: " + calls);
        for (ShortcutStatus status : off.statuses()) {
            assertFalse(status.active(), status.toString());
            assertEquals("switchboard.container-shortcuts=off", status.whyNot());
        }
        assertEquals(Shortcut.values().length, off.statuses().size());
    }

    @Test
    void thePortableRemoteAddressIsTheStandardUserPropertyOrUnknown() {
        ContainerShortcuts off = ContainerSeam.select("off", THIS_JVM);
        Session session = recording(Session.class);

        assertEquals("unknown", off.remoteAddress(session));
        userProperties.put("jakarta.websocket.endpoint.remoteAddress", new InetSocketAddress("127.0.0.2", 4000));
        assertEquals("127.0.0.2", off.remoteAddress(session));
    }

    @Test
    void autoOutsidePayaraEngagesNothingAndSaysWhatIsMissing() {
        ContainerShortcuts auto = ContainerSeam.select("auto", THIS_JVM);

        assertInstanceOf(PayaraShortcuts.class, auto);
        Map<Shortcut, ShortcutStatus> byName = new HashMap<>();
        auto.statuses().forEach(s -> byName.put(s.shortcut(), s));
        assertEquals(Shortcut.values().length, byName.size());
        byName.values().forEach(s -> assertFalse(s.active(), s.toString()));
        assertEquals("no org.glassfish.tyrus.core.TyrusSession", byName.get(Shortcut.IDLE_TIMER).whyNot());
        assertEquals("no org.glassfish.tyrus.core.TyrusRemoteEndpoint", byName.get(Shortcut.RAW_FRAMES).whyNot());
        assertEquals("no org.apache.catalina.connector.ResponseFacade", byName.get(Shortcut.WRITE_BUFFER).whyNot());
        assertEquals("no org.apache.catalina.connector.RequestFacade", byName.get(Shortcut.POLL_CHANNEL).whyNot());
        assertEquals("no org.glassfish.tyrus.servlet.TyrusHttpUpgradeHandler", byName.get(Shortcut.FRAME_GATE).whyNot());
        assertEquals("no org.apache.catalina.connector.RequestFacade", byName.get(Shortcut.DIRECT_UPGRADE).whyNot());
        assertEquals("no org.glassfish.internal.api.Globals", byName.get(Shortcut.STOP_NOTICE).whyNot());
        assertNull(auto.onContainerStop(() -> { }), "no stop notice to register with outside Payara");
    }

    @Test
    void shortcutsThatDidNotEngageFallBackToThePortablePath() {
        ContainerShortcuts auto = ContainerSeam.select("auto", THIS_JVM);
        Session session = recording(Session.class);
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        assertNull(auto.rawFrames(session));
        assertNull(auto.quietContext());
        assertSame(before, Thread.currentThread().getContextClassLoader());
        userProperties.put("jakarta.websocket.endpoint.remoteAddress", new InetSocketAddress("127.0.0.3", 4000));
        assertEquals("127.0.0.3", auto.remoteAddress(session));
        HttpServletRequest upgrade = recording(HttpServletRequest.class);
        assertSame(upgrade, auto.interceptUpgrade(upgrade, c -> c));
        assertFalse(auto.resizeWriteBuffer(recording(ServletResponse.class), 512));
        assertNull(auto.channel(recording(ServletRequest.class)));
        IdleTimerBypass timer = new IdleTimerBypass(Thread::new);
        try {
            assertFalse(auto.replaceSessionTimer(session, timer), "a session that is not Tyrus's keeps its timer");
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void anUnrecognisedModeTakesThePortablePathAndSaysSo() {
        ContainerShortcuts odd = ContainerSeam.select("fast", THIS_JVM);

        assertInstanceOf(PortableShortcuts.class, odd);
        assertTrue(odd.statuses().get(0).whyNot().contains("fast"), odd.statuses().get(0).whyNot());
        assertInstanceOf(PayaraShortcuts.class, ContainerSeam.select(" AUTO ", THIS_JVM));
    }

    @Test
    void theStartLineNamesEveryShortcutAndWhyItIsOff() {
        String line = ContainerSeam.startLine("off", ContainerSeam.select("off", THIS_JVM));

        assertTrue(line.startsWith("container shortcuts (switchboard.container-shortcuts=off): "), line);
        for (Shortcut s : Shortcut.values()) {
            assertTrue(line.contains(s.metricName() + "=off (switchboard.container-shortcuts=off)"), line);
        }
    }
}
