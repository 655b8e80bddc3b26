package org.switchboard.ear;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The web module's readiness check ("switchboard"), declared in the EAR's library directory.
 *
 * <p>Why here: WildFly registers only the MicroProfile Health checks of an EAR's top level and
 * libraries, never those inside its web modules, so the web module's own check would be missing from
 * WildFly's {@code /health/ready}. The web module registers its check here at start
 * ({@code org.switchboard.ops.ReadinessCheck}) and, finding this class, withdraws its own copy, so each
 * server lists the check exactly once. Until it has registered, the application is not ready.
 */
@Readiness
@ApplicationScoped
public class EarReadiness implements HealthCheck {

    private static volatile Supplier<HealthCheckResponse> webModule;

    /** Called by the web module at start with its check (reflectively: the WAR also runs without this library). */
    public static void register(Supplier<HealthCheckResponse> check) {
        webModule = check;
    }

    /** Called by the web module when it stops, so a stopped module is never reported ready. */
    public static void unregister() {
        webModule = null;
    }

    @Override
    public HealthCheckResponse call() {
        Supplier<HealthCheckResponse> check = webModule;
        if (check == null) {
            return HealthCheckResponse.named("switchboard").down().withData("web-module-started", false).build();
        }
        return check.get();
    }
}
