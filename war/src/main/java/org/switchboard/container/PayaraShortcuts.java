package org.switchboard.container;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.Session;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The shortcuts through Payara's Tyrus (WebSocket), Grizzly (network) and Catalina (servlet) internals.
 * The constructor probes each once: the classes are reachable through the given loaders, the fields
 * and methods have the expected shape, and private ones can be opened. A shortcut whose probe failed
 * is off (its reason kept) and takes the {@link PortableShortcuts} path; one that fails later, on a
 * real object, reports it once and is shown off from then on. Everything is resolved here, so no
 * operation looks anything up per call.
 */
public final class PayaraShortcuts implements ContainerShortcuts {

    private static final Logger LOG = Logger.getLogger(PayaraShortcuts.class.getName());

    static final String TYRUS_SESSION = "org.glassfish.tyrus.core.TyrusSession";
    static final String TYRUS_IDLE_COMMAND = TYRUS_SESSION + "$IdleTimeoutCommand";
    static final String TYRUS_REMOTE = "org.glassfish.tyrus.core.TyrusRemoteEndpoint";
    static final String TYRUS_UPGRADE = "org.glassfish.tyrus.servlet.TyrusHttpUpgradeHandler";
    static final String RESPONSE_FACADE = "org.apache.catalina.connector.ResponseFacade";
    static final String REQUEST_FACADE = "org.apache.catalina.connector.RequestFacade";
    static final String NIO_CONNECTION = "org.glassfish.grizzly.nio.NIOConnection";
    static final String GLOBALS = "org.glassfish.internal.api.Globals";
    static final String EVENTS = "org.glassfish.api.event.Events";
    static final String EVENT_LISTENER = "org.glassfish.api.event.EventListener";
    static final String EVENT = EVENT_LISTENER + "$Event";
    /** Present only in Payara Micro, whose own stop starts from a JVM shutdown hook. */
    static final String PAYARA_MICRO = "fish.payara.micro.impl.PayaraMicroImpl";
    /** The event a GlassFish-based server sends first when it starts stopping (EventTypes' stock name). */
    static final String PREPARE_SHUTDOWN = "prepare_shutdown";

    /**
     * A class loader that sees no resources. On Payara every Tyrus send reschedules the session's
     * idle-timeout task on a managed executor, which captures thread context with a ServiceLoader
     * scan of the thread's context class loader (the whole server class path) — measured as most
     * of the send cost. Sending with this loader as context makes that scan empty; nothing in the
     * send path loads application classes through the context loader.
     */
    private static final ClassLoader QUIET_CONTEXT = new ClassLoader(null) {
    };

    private final PortableShortcuts portable;
    private final Map<Shortcut, String> offAtStart = new EnumMap<>(Shortcut.class);
    private final AtomicReferenceArray<String> failedOnUse = new AtomicReferenceArray<>(Shortcut.values().length);

    private final Field sessionTimer;
    private final RawHandles raw;
    private final BufferHandles buffer;
    private final boolean quiet;
    private final AddressHandles address;
    private final ChannelHandles channel;
    private final boolean frameGate;
    private final UpgradeHandles directUpgrade;
    private final StopHandles stop;

    private record RawHandles(Class<?> remote, Field webSocket, MethodHandle send) {
    }

    private record BufferHandles(Class<?> facade, Field response, Method coyoteResponse, Method outputBuffer,
            Method setBufferSize, Method getBufferSize) {
    }

    private record UpgradeHandles(Class<?> facade, Method unwrapped, Method setUpgrade, Field handler,
            Method coyoteRequest, Method response, Method suspend) {
    }

    private record StopHandles(Object events, Class<?> listener, Method eventName, Method register, Method unregister) {
    }

    private record AddressHandles(Class<?> session, Method getRemoteAddr) {
    }

    private record ChannelHandles(Class<?> facade, Method unwrapped, Method coyoteRequest, Method connection,
            Class<?> nioConnection, Method channel) {
    }

    /** A probe that did not pass: the shortcut stays off, for this reason. */
    private static final class NotHere extends Exception {
        private static final long serialVersionUID = 1L;

        NotHere(String why) {
            super(why, null, false, false);
        }
    }

    /** Probes every shortcut with classes found through {@code loaders} (tried in order). */
    public PayaraShortcuts(List<ClassLoader> loaders) {
        this.portable = new PortableShortcuts("probe failed");
        this.sessionTimer = probe(Shortcut.IDLE_TIMER, () -> sessionTimer(loaders));
        this.raw = probe(Shortcut.RAW_FRAMES, () -> raw(loaders));
        this.buffer = probe(Shortcut.WRITE_BUFFER, () -> buffer(loaders));
        this.quiet = probe(Shortcut.QUIET_CONTEXT, () -> quiet(loaders)) != null;
        this.address = probe(Shortcut.REMOTE_ADDRESS, () -> address(loaders));
        this.channel = probe(Shortcut.POLL_CHANNEL, () -> channel(loaders));
        this.frameGate = probe(Shortcut.FRAME_GATE, () -> frameGate(loaders)) != null;
        this.directUpgrade = probe(Shortcut.DIRECT_UPGRADE, () -> directUpgrade(loaders, frameGate));
        this.stop = probe(Shortcut.STOP_NOTICE, () -> stop(loaders));
    }

    private interface Probe<T> {
        T run() throws NotHere, ReflectiveOperationException;
    }

    private <T> T probe(Shortcut shortcut, Probe<T> probe) {
        try {
            return probe.run();
        } catch (NotHere e) {
            offAtStart.put(shortcut, e.getMessage());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            offAtStart.put(shortcut, e.toString());
        }
        return null;
    }

    private static Class<?> find(String name, List<ClassLoader> loaders) throws NotHere {
        for (ClassLoader loader : loaders) {
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next loader
            }
        }
        throw new NotHere("no " + name);
    }

    private static boolean visible(String name, List<ClassLoader> loaders) {
        try {
            find(name, loaders);
            return true;
        } catch (NotHere e) {
            return false;
        }
    }

    private static Field open(Class<?> type, String name, Class<?> expected) throws NotHere, NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        if (!expected.isAssignableFrom(field.getType())) {
            throw new NotHere(type.getSimpleName() + "." + name + " is a " + field.getType().getName());
        }
        if (!field.trySetAccessible()) {
            throw new NotHere(type.getSimpleName() + "." + name + " cannot be opened");
        }
        return field;
    }

    private static Field sessionTimer(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> session = find(TYRUS_SESSION, loaders);
        Class.forName(TYRUS_IDLE_COMMAND, false, session.getClassLoader()); // what the timer drops, by this name
        return open(session, "service", ScheduledExecutorService.class);
    }

    private static RawHandles raw(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> remote = find(TYRUS_REMOTE, loaders);
        Field webSocket = open(remote, "webSocket", Object.class);
        MethodHandle send = MethodHandles.publicLookup()
                .findVirtual(webSocket.getType(), "sendRawFrame", MethodType.methodType(Future.class, ByteBuffer.class))
                .asType(MethodType.methodType(Future.class, Object.class, ByteBuffer.class));
        return new RawHandles(remote, webSocket, send);
    }

    private static BufferHandles buffer(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> facade = find(RESPONSE_FACADE, loaders);
        Field response = open(facade, "response", Object.class);
        Method coyote = response.getType().getMethod("getCoyoteResponse");
        Method output = coyote.getReturnType().getMethod("getOutputBuffer");
        Method set = output.getReturnType().getMethod("setBufferSize", int.class);
        Method get = output.getReturnType().getMethod("getBufferSize");
        if (get.getReturnType() != int.class) {
            throw new NotHere("getBufferSize returns " + get.getReturnType());
        }
        return new BufferHandles(facade, response, coyote, output, set, get);
    }

    private static Boolean quiet(List<ClassLoader> loaders) throws NotHere {
        find(TYRUS_SESSION, loaders); // the managed-executor reschedule it quietens is Tyrus's
        if (QUIET_CONTEXT.getResource("META-INF/services/java.lang.Object") != null) {
            throw new NotHere("the quiet loader sees resources");
        }
        return Boolean.TRUE;
    }

    private static AddressHandles address(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> session = find(TYRUS_SESSION, loaders);
        Method getRemoteAddr = session.getMethod("getRemoteAddr");
        if (getRemoteAddr.getReturnType() != String.class) {
            throw new NotHere("getRemoteAddr returns " + getRemoteAddr.getReturnType());
        }
        return new AddressHandles(session, getRemoteAddr);
    }

    private static ChannelHandles channel(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> facade = find(REQUEST_FACADE, loaders);
        Method unwrapped = facade.getMethod("getUnwrappedCoyoteRequest");
        Method coyote = unwrapped.getReturnType().getMethod("getCoyoteRequest");
        Method connection = coyote.getReturnType().getMethod("getConnection");
        Class<?> nio = Class.forName(NIO_CONNECTION, false, connection.getReturnType().getClassLoader());
        Method channel = nio.getMethod("getChannel");
        if (!channel.getReturnType().isAssignableFrom(SocketChannel.class)) {
            throw new NotHere("getChannel returns " + channel.getReturnType());
        }
        return new ChannelHandles(facade, unwrapped, coyote, connection, nio, channel);
    }

    private static Boolean frameGate(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> upgrade = find(TYRUS_UPGRADE, loaders);
        if (!HttpUpgradeHandler.class.isAssignableFrom(upgrade)) {
            throw new NotHere(upgrade.getSimpleName() + " is not this servlet API's upgrade handler");
        }
        if (!Modifier.isPublic(upgrade.getConstructor().getModifiers())) {
            throw new NotHere(upgrade.getSimpleName() + " has no public constructor");
        }
        return Boolean.TRUE;
    }

    /**
     * What Catalina's {@code Request.upgrade} does besides creating the handler: marks the request upgraded,
     * keeps the handler (initialised once the 101 is out), suspends the response. Only with the frame gate,
     * whose handler is the one installed.
     */
    private static UpgradeHandles directUpgrade(List<ClassLoader> loaders, boolean frameGate)
            throws NotHere, ReflectiveOperationException {
        Class<?> facade = find(REQUEST_FACADE, loaders);
        if (!frameGate) {
            throw new NotHere("needs " + Shortcut.FRAME_GATE.metricName());
        }
        Method unwrapped = facade.getMethod("getUnwrappedCoyoteRequest");
        Class<?> request = unwrapped.getReturnType();
        Method setUpgrade = request.getMethod("setUpgrade", boolean.class);
        Field handler = open(request, "httpUpgradeHandler", HttpUpgradeHandler.class);
        request.getMethod("initialiseHttpUpgradeHandler", WebConnection.class); // the reader of that field
        Method coyote = request.getMethod("getCoyoteRequest");
        Method response = coyote.getReturnType().getMethod("getResponse");
        Method suspend = response.getReturnType().getMethod("suspend");
        return new UpgradeHandles(facade, unwrapped, setUpgrade, handler, coyote, response, suspend);
    }

    private static StopHandles stop(List<ClassLoader> loaders) throws NotHere, ReflectiveOperationException {
        Class<?> globals = find(GLOBALS, loaders);
        if (visible(PAYARA_MICRO, loaders)) {
            // Micro stops from a JVM shutdown hook, which starts the application's own hooks as well:
            // those are the first notice there
            throw new NotHere("Payara Micro: the JVM's stop signal comes first");
        }
        Class<?> events = find(EVENTS, loaders);
        Class<?> listener = find(EVENT_LISTENER, loaders);
        Method eventName = find(EVENT, loaders).getMethod("name");
        if (eventName.getReturnType() != String.class) {
            throw new NotHere("Event.name returns " + eventName.getReturnType());
        }
        Object service = globals.getMethod("get", Class.class).invoke(null, events);
        if (service == null) {
            throw new NotHere("no " + EVENTS + " service");
        }
        return new StopHandles(service, listener, eventName, events.getMethod("register", listener),
                events.getMethod("unregister", listener));
    }

    /** Records that {@code shortcut} did not work on a real object (logged once; shown off from now on). */
    private void failed(Shortcut shortcut, String why) {
        if (failedOnUse.compareAndSet(shortcut.ordinal(), null, why)) {
            LOG.log(Level.INFO, "container shortcut {0} did not engage ({1}); taking the portable path",
                    new Object[] {shortcut.metricName(), why});
        }
    }

    @Override
    public boolean replaceSessionTimer(Session session, IdleTimerBypass timer) {
        if (sessionTimer == null) {
            return false;
        }
        if (!sessionTimer.getDeclaringClass().isInstance(session)) {
            failed(Shortcut.IDLE_TIMER, "session is a " + session.getClass().getName());
            return false;
        }
        try {
            sessionTimer.set(session, timer);
            return true;
        } catch (IllegalAccessException | RuntimeException e) {
            failed(Shortcut.IDLE_TIMER, e.toString());
            return false;
        }
    }

    @Override
    public RawFrameWriter rawFrames(Session session) {
        if (raw == null) {
            return null;
        }
        try {
            if (!session.getNegotiatedExtensions().isEmpty()) {
                return null; // an extension (e.g. compression) must see every frame Tyrus's way
            }
            Object remote = session.getAsyncRemote();
            if (!raw.remote().isInstance(remote)) {
                failed(Shortcut.RAW_FRAMES, "no Tyrus remote endpoint");
                return null;
            }
            Object webSocket = raw.webSocket().get(remote);
            if (webSocket == null) {
                failed(Shortcut.RAW_FRAMES, "no Tyrus web socket");
                return null;
            }
            return new RawFrameSender(webSocket, raw.send());
        } catch (IllegalAccessException | RuntimeException e) {
            failed(Shortcut.RAW_FRAMES, e.toString());
            return null;
        }
    }

    @Override
    public boolean resizeWriteBuffer(ServletResponse response, int bytes) {
        if (buffer == null) {
            return false;
        }
        ServletResponse unwrapped = response;
        while (unwrapped instanceof ServletResponseWrapper wrapper) {
            unwrapped = wrapper.getResponse();
        }
        if (!buffer.facade().isInstance(unwrapped)) {
            failed(Shortcut.WRITE_BUFFER, "response is a " + (unwrapped == null ? null : unwrapped.getClass().getName()));
            return false;
        }
        try {
            Object catalinaResponse = buffer.response().get(unwrapped);
            Object grizzlyResponse = buffer.coyoteResponse().invoke(catalinaResponse);
            Object outputBuffer = buffer.outputBuffer().invoke(grizzlyResponse);
            buffer.setBufferSize().invoke(outputBuffer, bytes);
            Object size = buffer.getBufferSize().invoke(outputBuffer);
            // Grizzly keeps at least 512 bytes; any other size means the buffer ignored the call
            if (Integer.valueOf(Math.max(bytes, 512)).equals(size)) {
                return true;
            }
            failed(Shortcut.WRITE_BUFFER, "the output buffer kept " + size + " bytes");
            return false;
        } catch (ReflectiveOperationException | RuntimeException e) {
            failed(Shortcut.WRITE_BUFFER, e.toString());
            return false;
        }
    }

    @Override
    public ClassLoader quietContext() {
        if (!quiet) {
            return null;
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(QUIET_CONTEXT);
        return previous;
    }

    @Override
    public void restoreContext(ClassLoader loader) {
        if (quiet) {
            Thread.currentThread().setContextClassLoader(loader);
        }
    }

    @Override
    public String remoteAddress(Session session) {
        String standard = portable.remoteAddress(session);
        if (address == null || !PortableShortcuts.UNKNOWN.equals(standard)) {
            return standard;
        }
        if (!address.session().isInstance(session)) {
            failed(Shortcut.REMOTE_ADDRESS, "session is a " + session.getClass().getName());
            return standard;
        }
        try {
            Object remote = address.getRemoteAddr().invoke(session);
            if (remote != null) {
                return remote.toString();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            failed(Shortcut.REMOTE_ADDRESS, e.toString());
        }
        return standard;
    }

    @Override
    public SocketChannel channel(ServletRequest request) {
        if (channel == null || request == null) {
            return null;
        }
        try {
            // Jersey started async with the container's own request; a proxy or wrapper leads to it
            ServletRequest r = request.isAsyncStarted() ? request.getAsyncContext().getRequest() : request;
            while (r instanceof ServletRequestWrapper w) {
                r = w.getRequest();
            }
            if (r.getProtocol() == null || !r.getProtocol().startsWith("HTTP/1.")) {
                return null; // on a multiplexed connection, readable does not mean gone
            }
            if (!channel.facade().isInstance(r)) {
                failed(Shortcut.POLL_CHANNEL, "request is a " + r.getClass().getName());
                return null;
            }
            Object o = channel.unwrapped().invoke(r);
            o = o == null ? null : channel.coyoteRequest().invoke(o);
            o = o == null ? null : channel.connection().invoke(o);
            if (!channel.nioConnection().isInstance(o)) {
                return null; // a request without a connection (finished meanwhile): nothing to watch
            }
            return channel.channel().invoke(o) instanceof SocketChannel socket ? socket : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            failed(Shortcut.POLL_CHANNEL, e.toString());
            return null;
        }
    }

    @Override
    public HttpServletRequest interceptUpgrade(HttpServletRequest request, UnaryOperator<WebConnection> connection) {
        if (!frameGate) {
            return request;
        }
        return UpgradeInterception.wrap(request, connection, why -> failed(Shortcut.FRAME_GATE, why), this::installUpgrade);
    }

    /** Installs {@code handler} as the upgrade handler of the container's request under {@code request}; whether it could. */
    private boolean installUpgrade(HttpServletRequest request, HttpUpgradeHandler handler) {
        if (directUpgrade == null || failedOnUse.get(Shortcut.DIRECT_UPGRADE.ordinal()) != null) {
            return false;
        }
        try {
            ServletRequest r = request;
            while (r instanceof ServletRequestWrapper w) {
                r = w.getRequest();
            }
            if (!directUpgrade.facade().isInstance(r)) {
                failed(Shortcut.DIRECT_UPGRADE, "request is a " + r.getClass().getName());
                return false;
            }
            Object catalina = directUpgrade.unwrapped().invoke(r);
            if (catalina == null) {
                failed(Shortcut.DIRECT_UPGRADE, "the request was recycled");
                return false;
            }
            directUpgrade.setUpgrade().invoke(catalina, true);
            directUpgrade.handler().set(catalina, handler);
            directUpgrade.suspend().invoke(directUpgrade.response().invoke(directUpgrade.coyoteRequest().invoke(catalina)));
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the standard upgrade that follows redoes each step, so a partial one leaves nothing behind
            failed(Shortcut.DIRECT_UPGRADE, e.toString());
            return false;
        }
    }

    @Override
    public AutoCloseable onContainerStop(Runnable action) {
        if (stop == null) {
            return null;
        }
        // The server's listener interface, implemented by a proxy: only its one method, event(Event), is called.
        InvocationHandler handler = (proxy, method, args) -> {
            switch (method.getName()) {
                case "event" -> {
                    if (args != null && args.length == 1 && args[0] != null
                            && PREPARE_SHUTDOWN.equals(stop.eventName().invoke(args[0]))) {
                        action.run();
                    }
                    return null;
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "toString" -> {
                    return "switchboard stop notice";
                }
                default -> {
                    return null;
                }
            }
        };
        Object listener = Proxy.newProxyInstance(stop.listener().getClassLoader(), new Class<?>[] {stop.listener()}, handler);
        try {
            stop.register().invoke(stop.events(), listener);
        } catch (ReflectiveOperationException | RuntimeException e) {
            failed(Shortcut.STOP_NOTICE, e.toString());
            return null;
        }
        return () -> stop.unregister().invoke(stop.events(), listener);
    }

    @Override
    public List<ShortcutStatus> statuses() {
        List<ShortcutStatus> all = new ArrayList<>();
        for (Shortcut s : Shortcut.values()) {
            String why = offAtStart.get(s);
            if (why == null) {
                String failure = failedOnUse.get(s.ordinal());
                why = failure == null ? null : "failed on use: " + failure;
            }
            all.add(new ShortcutStatus(s, why == null, why));
        }
        return all;
    }
}
