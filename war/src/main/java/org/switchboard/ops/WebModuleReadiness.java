package org.switchboard.ops;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** The readiness check "switchboard" of a bare WAR (Payara Micro); in the EAR the library's check stands in. */
@Readiness
@ApplicationScoped
public class WebModuleReadiness implements HealthCheck {

    @Inject
    ReadinessCheck check;

    @Override
    public HealthCheckResponse call() {
        return check.call();
    }
}
