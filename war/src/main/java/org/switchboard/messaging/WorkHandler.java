package org.switchboard.messaging;

/** Processes work items of one kind taken from the {@link WorkQueue}; implementations are CDI beans. */
public interface WorkHandler {

    /** The kind of work this handler takes, as given to {@link WorkQueue#submit}. */
    String kind();

    /**
     * Handles one item. Throwing makes the broker redeliver it (with the adapter's back-off);
     * handlers that keep their own retry schedule re-submit with a delay instead and return normally.
     */
    void handle(String body, int deliveryCount) throws Exception;
}
