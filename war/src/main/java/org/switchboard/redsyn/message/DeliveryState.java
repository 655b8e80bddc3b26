package org.switchboard.redsyn.message;

/** Delivery states stored on a message row. */
public final class DeliveryState {

    // Inbox queries ask for the row's WAITING flag (queued or taken), which every state change keeps in step.

    /** Waiting to be taken (or back after a lease ran out). */
    public static final int QUEUED = 0;
    /** Leased to a taker until {@code leaseUntil}. */
    public static final int TAKEN = 1;
    /** Acked, or its request answered. */
    public static final int DONE = 2;
    /** Taken too many times without an ack. */
    public static final int ABANDONED = 3;
    /** Its TTL ran out before anyone took (or confirmed) it. */
    public static final int EXPIRED = 4;
    /** Withdrawn by its sender before anyone took it. */
    public static final int CANCELLED = 5;

    private DeliveryState() {
    }

    /** The wire name of a state. */
    public static String name(int state) {
        return switch (state) {
            case QUEUED -> "queued";
            case TAKEN -> "taken";
            case DONE -> "done";
            case ABANDONED -> "abandoned";
            case EXPIRED -> "expired";
            case CANCELLED -> "cancelled";
            default -> "unknown";
        };
    }
}
