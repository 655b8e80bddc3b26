package org.switchboard.ops;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.switchboard.messaging.JmsWorkQueue;

/** Readiness for orchestrators: the database (journal) answers and the broker accepts connections. */
@Readiness
@ApplicationScoped
public class ReadinessCheck implements HealthCheck {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    JmsWorkQueue workQueue;

    @Override
    public HealthCheckResponse call() {
        boolean database = databaseAnswers();
        boolean broker = workQueue.reachable();
        return HealthCheckResponse.named("switchboard")
                .status(database && broker)
                .withData("database", database)
                .withData("broker", broker)
                .build();
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
