package org.switchboard.itests.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.switchboard.messaging.WorkHandler;

/**
 * Work handlers used by {@link WorkQueueIT}: one records what it gets, one fails twice first.
 * Tests call methods, never fields: the injected references are CDI client proxies.
 */
public final class RecordingHandlers {

    private RecordingHandlers() {
    }

    /** Records every body it is handed, with the time it arrived. */
    @ApplicationScoped
    public static class Recording implements WorkHandler {
        final BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();

        @Override
        public String kind() {
            return "it-record";
        }

        /** Next recorded body and its arrival time (System.nanoTime), or null after the timeout. */
        public Object[] next(long timeoutMillis) throws InterruptedException {
            String body = bodies.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            return body == null ? null : new Object[] {body, arrivals.take()};
        }

        public void clear() {
            bodies.clear();
            arrivals.clear();
        }

        @Override
        public void handle(String body, int deliveryCount) {
            arrivals.add(System.nanoTime());
            bodies.add(body);
        }
    }

    /** Throws on the first two deliveries of each item, then records it with its delivery count. */
    @ApplicationScoped
    public static class Flaky implements WorkHandler {
        final AtomicInteger attempts = new AtomicInteger();
        final BlockingQueue<Integer> succeededAtDelivery = new LinkedBlockingQueue<>();

        @Override
        public String kind() {
            return "it-flaky";
        }

        /** The delivery count at which an item finally succeeded, or null after the timeout. */
        public Integer nextSuccess(long timeoutMillis) throws InterruptedException {
            return succeededAtDelivery.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        }

        public int attempts() {
            return attempts.get();
        }

        @Override
        public void handle(String body, int deliveryCount) {
            attempts.incrementAndGet();
            if (deliveryCount < 3) {
                throw new IllegalStateException("simulated failure on delivery " + deliveryCount);
            }
            succeededAtDelivery.add(deliveryCount);
        }
    }
}
