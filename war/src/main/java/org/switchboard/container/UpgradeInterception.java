package org.switchboard.container;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import java.io.IOException;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The upgrade handler the servlet container runs in place of the WebSocket container's own: that one
 * is created here as usual and handed back to the WebSocket container, and on {@link #init} it gets a
 * connection transformed by the caller (the hub's frame gate). Relies on Tyrus creating its handler
 * through {@code request.upgrade(TyrusHttpUpgradeHandler.class)} and using the instance returned.
 */
public class UpgradeInterception implements HttpUpgradeHandler {

    private static final Logger LOG = Logger.getLogger(UpgradeInterception.class.getName());

    private HttpUpgradeHandler inner;
    private UnaryOperator<WebConnection> connection;

    /** Created by the servlet container on upgrade. */
    public UpgradeInterception() {
    }

    /**
     * {@code request}, whose upgrade hands its handler {@code connection.apply(…)}; {@code failed} hears why
     * not. {@code direct} installs this class's instance on the container's request without the container
     * creating it (false: it did not, and the container's standard upgrade creates one).
     */
    static HttpServletRequest wrap(HttpServletRequest request, UnaryOperator<WebConnection> connection, Consumer<String> failed,
            BiPredicate<HttpServletRequest, HttpUpgradeHandler> direct) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public <T extends HttpUpgradeHandler> T upgrade(Class<T> handlerClass) throws IOException, ServletException {
                T handler;
                try {
                    handler = handlerClass.getDeclaredConstructor().newInstance();
                } catch (ReflectiveOperationException | RuntimeException e) {
                    LOG.log(Level.FINE, "upgrade handler not created here; the upgrade proceeds unintercepted", e);
                    failed.accept("cannot create " + handlerClass.getName() + ": " + e);
                    return super.upgrade(handlerClass);
                }
                UpgradeInterception outer = new UpgradeInterception();
                if (!direct.test(request, outer)) {
                    outer = super.upgrade(UpgradeInterception.class);
                }
                outer.inner = handler;
                outer.connection = connection;
                return handler;
            }
        };
    }

    @Override
    public void init(WebConnection socket) {
        inner.init(connection.apply(socket));
    }

    @Override
    public void destroy() {
        inner.destroy();
    }
}
