package org.switchboard.ops;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Puts the readiness check where the server finds it. Inside the EAR, the library's
 * {@code org.switchboard.ear.EarReadiness} reports it (WildFly ignores health checks inside an EAR's web
 * modules), so the web module withdraws its own {@link WebModuleReadiness} and, once started, hands
 * {@link ReadinessCheck} to the library; a bare WAR keeps its own check.
 */
public class ReadinessPlacement implements Extension {

    /** The EAR library's check (ear/readiness); absent when the WAR is deployed alone. */
    static final String EAR_CHECK = "org.switchboard.ear.EarReadiness";

    private static final Logger LOG = Logger.getLogger(ReadinessPlacement.class.getName());

    void withdrawInEar(@Observes ProcessAnnotatedType<WebModuleReadiness> type) {
        if (earCheck() != null) {
            type.veto();
        }
    }

    /** The library's check class, or null outside the EAR. */
    static Class<?> earCheck() {
        try {
            return Class.forName(EAR_CHECK, true, ReadinessPlacement.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Hands the application's check to the EAR library at start (a bean: extensions get no injection). */
    @ApplicationScoped
    public static class Registration {

        @Inject
        ReadinessCheck check;

        @Resource
        ContextService contexts;

        void started(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
            Class<?> ear = earCheck();
            if (ear != null) {
                // WildFly calls it on its management threads, which lack the application's naming
                // context (NameNotFoundException java:app/jms/work, even through a managed executor, which
                // takes the submitting thread's context): there it runs in this start-up thread's context.
                // Payara calls it inside the application's context already, and a contextual proxy there
                // unbalanced its invocation stack ("postInvoke not called ...", "closed EntityManager").
                Supplier<HealthCheckResponse> inOurContext = contexts.contextualSupplier(Registration.this::safeCall);
                Supplier<HealthCheckResponse> supplier = () -> inApplicationContext() ? safeCall() : inOurContext.get();
                invoke(ear, "register", new Class<?>[] {Supplier.class}, supplier);
                LOG.info("readiness: reported by the EAR library's check (" + EAR_CHECK + ")");
            }
        }

        private HealthCheckResponse safeCall() {
            try {
                return check.call();
            } catch (RuntimeException e) {
                return HealthCheckResponse.named("switchboard").down().withData("error", String.valueOf(e)).build();
            }
        }

        /** True on a thread that sees this application's java:app namespace. */
        private static boolean inApplicationContext() {
            try {
                new InitialContext().lookup("java:app/AppName");
                return true;
            } catch (NamingException | RuntimeException e) {
                return false;
            }
        }

        void stopping(@Observes @BeforeDestroyed(ApplicationScoped.class) Object ignored) {
            Class<?> ear = earCheck();
            if (ear != null) {
                invoke(ear, "unregister", new Class<?>[0]);
            }
        }

        private static void invoke(Class<?> ear, String method, Class<?>[] types, Object... args) {
            try {
                ear.getMethod(method, types).invoke(null, args);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new IllegalStateException("readiness: " + EAR_CHECK + "." + method + " unusable", e);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("readiness: " + EAR_CHECK + "." + method + " failed", e.getCause());
            }
        }
    }
}
