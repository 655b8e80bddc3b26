package org.switchboard.lifecycle;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Waits, within one deadline, for executors already told to stop. A container-managed thread runs the
 * container's clean-up (closing the entity managers it used outside a transaction) when it ends; a
 * thread still ending after the persistence unit closed dies on "a closed EntityManager" with a stack
 * trace. So a bean's {@code @PreDestroy} waits here for its threads before the unit goes.
 */
public final class ExecutorStop {

    private ExecutorStop() {
    }

    /**
     * Waits until every executor (each already shut down) has terminated or {@code within} has passed;
     * true when all terminated. Null entries are skipped; an interrupt ends the wait early (and is kept).
     */
    public static boolean awaitAll(Duration within, ExecutorService... executors) {
        long deadline = System.nanoTime() + within.toNanos();
        boolean all = true;
        for (ExecutorService executor : executors) {
            if (executor == null) {
                continue;
            }
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                all &= executor.awaitTermination(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return all;
    }
}
