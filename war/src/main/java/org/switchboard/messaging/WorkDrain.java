package org.switchboard.messaging;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.logging.Logger;
import org.switchboard.lifecycle.StopSignal;

/**
 * Closes the work consumer's gate when the application stops. At undeploy it also waits briefly for
 * the items in flight to finish. A stop signal closes it from a JVM shutdown hook instead: the
 * container's own hook then unloads the application's classes while the consumer still runs, and an
 * item cut short that way is handed back to the broker rather than reported as a failure.
 */
@ApplicationScoped
public class WorkDrain {

    private static final Logger LOG = Logger.getLogger(WorkDrain.class.getName());
    /** Well inside the shutdown deadline (switchboard.shutdown.grace-seconds, 8 s by default). */
    static final Duration PATIENCE = Duration.ofSeconds(3);

    private StopSignal stopSignal;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        stopSignal = StopSignal.onStop("switchboard-work-gate", WorkConsumer.GATE::close);
    }

    @PreDestroy
    void drain() {
        if (stopSignal != null) {
            stopSignal.close();
        }
        try {
            int left = WorkConsumer.GATE.closeAndDrain(PATIENCE);
            if (left > 0) {
                LOG.info(() -> left + " work item(s) still running at stop; the broker hands them out again after the next start");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
