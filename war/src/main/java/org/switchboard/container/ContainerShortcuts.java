package org.switchboard.container;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.Session;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The one seam between the application and its container's internals: each operation is a shortcut
 * that {@link PayaraShortcuts} takes through Tyrus, Grizzly or Catalina internals when a start-up
 * probe found them, and that {@link PortableShortcuts} (plain Jakarta EE) leaves off, taking the
 * standard path. Chosen once at start by {@link ContainerSeam}; no other package reaches into
 * container classes. Every operation is safe to call per frame: all lookups were resolved at start.
 */
public interface ContainerShortcuts {

    /** The configuration key: {@code auto} (probe, engage what works) or {@code off} (portable path only). */
    String CONFIG_KEY = "switchboard.container-shortcuts";

    /**
     * Gives {@code session} {@code timer} in place of its container-managed idle timer; false (nothing
     * changed) when this shortcut is off.
     */
    boolean replaceSessionTimer(Session session, IdleTimerBypass timer);

    /**
     * A writer of already-framed bytes for {@code session}, or null when the standard send API must be
     * used (shortcut off, or a negotiated extension that must see every frame).
     */
    RawFrameWriter rawFrames(Session session);

    /** Sets the container's output buffer behind {@code response} to {@code bytes} before an upgrade; whether it could. */
    boolean resizeWriteBuffer(ServletResponse response, int bytes);

    /**
     * Puts the quiet (resource-less) context class loader on the current thread and returns the one it
     * replaced, or does nothing and returns null when this shortcut is off.
     */
    ClassLoader quietContext();

    /** Puts {@code loader} back as the current thread's context class loader (nothing when off or null). */
    void restoreContext(ClassLoader loader);

    /** The remote address of {@code session}: the standard user property, else what the container tells, else "unknown". */
    String remoteAddress(Session session);

    /** The socket channel under an HTTP/1.x request, or null when it cannot be known. */
    SocketChannel channel(ServletRequest request);

    /**
     * {@code request}, wrapped so that the WebSocket container's upgrade handler receives
     * {@code connection.apply(theSocketsConnection)}; {@code request} itself when this shortcut is off.
     */
    HttpServletRequest interceptUpgrade(HttpServletRequest request, UnaryOperator<WebConnection> connection);

    /**
     * Runs {@code action} when the container announces that the server is stopping, before it suspends
     * its services; the returned handle unregisters it (at undeploy). Null when this shortcut is off:
     * the JVM's stop signal is then the first notice.
     */
    AutoCloseable onContainerStop(Runnable action);

    /** Every shortcut, in {@link Shortcut} order, with whether it is engaged now. */
    List<ShortcutStatus> statuses();
}
