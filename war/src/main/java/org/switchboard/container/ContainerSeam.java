package org.switchboard.container;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.switchboard.lifecycle.StopSignal;

/**
 * Chooses the application's {@link ContainerShortcuts} once, at start ({@code switchboard.container-shortcuts}:
 * {@code auto} probes Payara's internals, {@code off} takes the portable path), and logs one INFO line
 * naming each shortcut and whether it engaged. Callers fetch {@link #shortcuts()} once and keep it.
 */
@ApplicationScoped
public class ContainerSeam {

    private static final Logger LOG = Logger.getLogger(ContainerSeam.class.getName());
    /** The servlet context attribute holding the WebSocket container (its class comes from the WebSocket implementation). */
    private static final String SERVER_CONTAINER = "jakarta.websocket.server.ServerContainer";

    @Inject
    @ConfigProperty(name = ContainerShortcuts.CONFIG_KEY, defaultValue = "auto")
    String mode;

    private volatile ServletContext servletContext;
    private volatile ContainerShortcuts shortcuts;
    private AutoCloseable stopNotice;

    void start(@Observes @Initialized(ApplicationScoped.class) Object event) {
        if (event instanceof ServletContext context) {
            servletContext = context;
        }
        // the server's own stop announcement runs the application's stop actions (StopSignal) first
        stopNotice = shortcuts().onContainerStop(() -> {
            LOG.info("stop: the server announced its stop (container-stop-notice); periodic work and new handshakes stop now");
            StopSignal.containerStopping();
        });
    }

    @PreDestroy
    void stop() {
        if (stopNotice != null) {
            try {
                stopNotice.close();
            } catch (Exception e) {
                LOG.fine(() -> "container stop notice not unregistered: " + e);
            }
        }
    }

    /** The shortcuts chosen at start (chosen now on first use). */
    public ContainerShortcuts shortcuts() {
        ContainerShortcuts current = shortcuts;
        if (current == null) {
            synchronized (this) {
                if (shortcuts == null) {
                    shortcuts = select(mode, loaders(servletContext));
                    LOG.info(startLine(mode, shortcuts));
                }
                current = shortcuts;
            }
        }
        return current;
    }

    /** {@code auto}: probe through {@code loaders}; {@code off} (or anything unrecognised): the portable path. */
    public static ContainerShortcuts select(String mode, List<ClassLoader> loaders) {
        String m = mode == null ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
        return switch (m) {
            case "auto" -> new PayaraShortcuts(loaders);
            case "off" -> new PortableShortcuts(ContainerShortcuts.CONFIG_KEY + "=off");
            default -> new PortableShortcuts(ContainerShortcuts.CONFIG_KEY + "=" + mode + " is not auto or off");
        };
    }

    /** The one start-up line: {@code container shortcuts (switchboard.container-shortcuts=auto): name=on, name=off (why), …}. */
    public static String startLine(String mode, ContainerShortcuts shortcuts) {
        return "container shortcuts (" + ContainerShortcuts.CONFIG_KEY + "=" + mode + "): "
                + shortcuts.statuses().stream().map(ShortcutStatus::toString).collect(Collectors.joining(", "));
    }

    /** This application's loader, then those of the container's own servlet context and WebSocket container. */
    private static List<ClassLoader> loaders(ServletContext context) {
        List<ClassLoader> loaders = new ArrayList<>();
        add(loaders, ContainerSeam.class.getClassLoader());
        if (context != null) {
            add(loaders, context.getClass().getClassLoader());
            Object webSockets = context.getAttribute(SERVER_CONTAINER);
            if (webSockets != null) {
                add(loaders, webSockets.getClass().getClassLoader());
            }
        }
        add(loaders, Thread.currentThread().getContextClassLoader());
        return loaders;
    }

    private static void add(List<ClassLoader> loaders, ClassLoader loader) {
        if (loader != null && !loaders.contains(loader)) {
            loaders.add(loader);
        }
    }
}
