package org.switchboard.ops;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.switchboard.messaging.JmsWorkQueue;
import org.switchboard.synapse.hub.SynapseRuntime;

/**
 * Readiness for orchestrators: the database (journal) answers, the broker accepts connections, the
 * SYNAPSE hub has replayed its journal, and the web module is enabled: {@code /redsyn/v1/me} answers
 * (with its JSON 401) on the configured loopback URL. {@code /health} is not probed, since a metrics
 * token or {@code hub.metrics=false} makes it answer in plain text.
 *
 * <p>The server sees it as the readiness check "switchboard": {@link WebModuleReadiness} in a bare WAR,
 * the EAR library's {@code org.switchboard.ear.EarReadiness} in the EAR ({@link ReadinessPlacement}).
 */
@ApplicationScoped
public class ReadinessCheck {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    JmsWorkQueue workQueue;

    @Inject
    SynapseRuntime synapse;

    /**
     * Base URL the check uses to see the application's own endpoints answer, e.g.
     * {@code http://127.0.0.1:8876/} ({@code run-hub} sets it); unset: that part is skipped.
     */
    @Inject
    @ConfigProperty(name = "switchboard.readiness.probe-url")
    Optional<String> probeUrl;

    private volatile ServingProbe probe;

    /** The application's readiness now. */
    public HealthCheckResponse call() {
        boolean database = databaseAnswers();
        boolean broker = workQueue.reachable();
        boolean replayed = synapse.started();
        boolean served = replayed && probe().served();
        boolean posture = !synapse.refusesToServe();
        return HealthCheckResponse.named("switchboard")
                .status(database && broker && replayed && served && posture)
                .withData("synapse-posture", posture)
                .withData("database", database)
                .withData("broker", broker)
                .withData("journal-replayed", replayed)
                .withData("endpoints-served", served)
                .build();
    }

    private ServingProbe probe() {
        ServingProbe current = probe;
        if (current == null) {
            URI base = probeUrl.filter(url -> !url.isBlank()).map(url -> URI.create(url.endsWith("/") ? url : url + "/"))
                    .orElse(null);
            current = new ServingProbe(base, List.of("redsyn/v1/me"));
            probe = current;
        }
        return current;
    }

    private boolean databaseAnswers() {
        try {
            em.createNativeQuery("SELECT 1").getSingleResult();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
