package org.switchboard.messaging;

import java.time.Duration;

/** Durable, retry-friendly hand-off of background work (webhook deliveries, hub forwards) to a broker queue. */
public interface WorkQueue {

    /**
     * Enqueues one unit of work. It is persisted by the broker before this returns and is handed to
     * the {@link WorkHandler} registered for {@code kind} after {@code delay}, surviving a restart.
     */
    void submit(String kind, String body, Duration delay);
}
