package org.switchboard.redsyn.inbox;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import java.nio.channels.SocketChannel;

/**
 * Finds the socket channel under a servlet request, when the container exposes it. Payara's web
 * container does, through public methods of its request facade (the Catalina request, then the
 * Grizzly request and its connection); any other container, or another version, gives null and
 * long polls simply end with their wait, as they always did.
 */
final class ServletChannels {

    /** The public getters from Payara's request facade down to the NIO channel. */
    private static final String[] PATH = {"getUnwrappedCoyoteRequest", "getCoyoteRequest", "getConnection", "getChannel"};

    private ServletChannels() {
    }

    /** The channel of an HTTP/1.x request, or null when it cannot be found. */
    static SocketChannel of(ServletRequest request) {
        if (request == null) {
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
            return follow(r);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Follows {@link #PATH} by reflection from {@code start}; null when a step is missing. */
    static SocketChannel follow(Object start) {
        Object o = start;
        try {
            for (String getter : PATH) {
                o = o.getClass().getMethod(getter).invoke(o);
                if (o == null) {
                    return null;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
        return o instanceof SocketChannel channel ? channel : null;
    }
}
