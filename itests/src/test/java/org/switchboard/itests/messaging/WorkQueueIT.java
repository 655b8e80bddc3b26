package org.switchboard.itests.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.switchboard.messaging.JmsWorkQueue;
import org.switchboard.messaging.WorkConsumer;
import org.switchboard.messaging.WorkDrain;
import org.switchboard.messaging.WorkGate;
import org.switchboard.messaging.WorkHandler;
import org.switchboard.messaging.WorkQueue;

/**
 * Container wiring of the work queue: the embedded ActiveMQ broker behind the resource adapter,
 * the MDB, broker-scheduled delays and redelivery after a handler fails.
 */
@ExtendWith(ArquillianExtension.class)
class WorkQueueIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "workqueue-it.war")
                .addClasses(WorkQueue.class, WorkHandler.class, JmsWorkQueue.class, WorkConsumer.class, WorkGate.class,
                        WorkDrain.class, org.switchboard.lifecycle.StopSignal.class,
                        RecordingHandlers.class, RecordingHandlers.Recording.class, RecordingHandlers.Flaky.class)
                .addAsWebInfResource(new StringAsset("<beans bean-discovery-mode=\"annotated\" version=\"4.0\"/>"), "beans.xml");
    }

    @Inject
    WorkQueue queue;

    @Inject
    RecordingHandlers.Recording recording;

    @Inject
    RecordingHandlers.Flaky flaky;

    @Test
    void submittedWorkReachesTheHandlerForItsKind() throws Exception {
        recording.clear();
        queue.submit("it-record", "hello", Duration.ZERO);
        Object[] received = recording.next(20_000);
        assertNotNull(received, "the MDB never handed the work to its handler");
        assertEquals("hello", received[0]);
    }

    @Test
    void delayedWorkIsHeldByTheBrokerUntilDue() throws Exception {
        recording.clear();
        long submitted = System.nanoTime();
        queue.submit("it-record", "later", Duration.ofSeconds(3));
        assertNull(recording.next(1500), "delayed work arrived early");
        Object[] received = recording.next(20_000);
        assertNotNull(received, "delayed work never arrived");
        assertEquals("later", received[0]);
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis((Long) received[1] - submitted);
        assertTrue(waitedMillis >= 2900, "arrived after only " + waitedMillis + " ms");
    }

    @Test
    void failedWorkIsRedeliveredUntilItsHandlerSucceeds() throws Exception {
        queue.submit("it-flaky", "retry-me", Duration.ZERO);
        Integer delivery = flaky.nextSuccess(60_000);
        assertEquals(3, delivery, "expected success on the third delivery");
        assertTrue(flaky.attempts() >= 3);
    }
}
