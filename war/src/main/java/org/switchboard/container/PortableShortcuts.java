package org.switchboard.container;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.Session;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Plain Jakarta EE behaviour for every shortcut: nothing is replaced, resized or intercepted, frames go
 * through the standard async send, the remote address is what the standard user property tells, and
 * a long poll whose client left is released when its wait ends.
 */
public final class PortableShortcuts implements ContainerShortcuts {

    /** The user property some containers (not Tyrus) set to the socket's remote {@link InetSocketAddress}. */
    static final String REMOTE_ADDRESS_PROPERTY = "jakarta.websocket.endpoint.remoteAddress";
    /** The remote address when the container tells none. */
    static final String UNKNOWN = "unknown";

    private final String whyOff;

    /** Every shortcut off, for the reason {@code whyOff} (reported by {@link #statuses()}). */
    public PortableShortcuts(String whyOff) {
        this.whyOff = whyOff;
    }

    @Override
    public boolean replaceSessionTimer(Session session, IdleTimerBypass timer) {
        return false;
    }

    @Override
    public RawFrameWriter rawFrames(Session session) {
        return null;
    }

    @Override
    public boolean resizeWriteBuffer(ServletResponse response, int bytes) {
        return false;
    }

    @Override
    public ClassLoader quietContext() {
        return null;
    }

    @Override
    public void restoreContext(ClassLoader loader) {
        // nothing was changed
    }

    @Override
    public String remoteAddress(Session session) {
        Object address = session.getUserProperties().get(REMOTE_ADDRESS_PROPERTY);
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
        }
        return UNKNOWN;
    }

    @Override
    public SocketChannel channel(ServletRequest request) {
        return null;
    }

    @Override
    public HttpServletRequest interceptUpgrade(HttpServletRequest request, UnaryOperator<WebConnection> connection) {
        return request;
    }

    @Override
    public AutoCloseable onContainerStop(Runnable action) {
        return null;
    }

    @Override
    public List<ShortcutStatus> statuses() {
        List<ShortcutStatus> all = new ArrayList<>();
        for (Shortcut s : Shortcut.values()) {
            all.add(new ShortcutStatus(s, false, whyOff));
        }
        return all;
    }
}
