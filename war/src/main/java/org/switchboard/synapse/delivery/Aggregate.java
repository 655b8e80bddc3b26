package org.switchboard.synapse.delivery;

/**
 * One delivery request's state (the aggregate of §2.9): the admitted intent, its identities and
 * selection, the stage and the separate facts, {@code ordinal} (1 at queueing, +1 per mutation),
 * and the journal seq of the last change (0 until that change has committed).
 */
public record Aggregate(String operationKey, DeliveryIntent intent, String originHub, String receivingHub,
                        String digest, String selectedMode, String quality, Stage stage, boolean cancelRequested,
                        boolean boundaryDelivered, boolean explicitlyAcknowledged, long ordinal, long latestEventSeq,
                        long admittedOrder, String offer) {

    /** The state after a stage change by the recipient or the hub (one more ordinal). */
    public Aggregate moved(Stage next) {
        return new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality, next,
                cancelRequested, boundaryDelivered || next == Stage.BOUNDARY_DELIVERED,
                explicitlyAcknowledged || next == Stage.ACKNOWLEDGED, ordinal + 1, latestEventSeq, admittedOrder,
                next == Stage.QUEUED ? offer : null); // an offer goes out only while queued: not kept after
    }

    /** The state after the sender's first cancel request: stage unchanged, one more ordinal. */
    public Aggregate withCancelRequest() {
        return new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality, stage, true,
                boundaryDelivered, explicitlyAcknowledged, ordinal + 1, latestEventSeq, admittedOrder, offer);
    }

    /** The same state with the journal seq of its last change. */
    public Aggregate withSeq(long seq) {
        return new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality, stage,
                cancelRequested, boundaryDelivered, explicitlyAcknowledged, ordinal, seq, admittedOrder, offer);
    }

    /** The same state with its offer text (kept while queued, for re-sends). */
    public Aggregate withOffer(String offerText) {
        return new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality, stage,
                cancelRequested, boundaryDelivered, explicitlyAcknowledged, ordinal, latestEventSeq, admittedOrder, offerText);
    }

    /** The notification id of the change that produced {@code ordinal}: {@code delivery:<operation_key>:<ordinal>}. */
    public String notificationId() {
        return notificationId(operationKey, ordinal);
    }

    /** {@code delivery:<operation_key>:<ordinal>}. */
    public static String notificationId(String operationKey, long ordinal) {
        return "delivery:" + operationKey + ":" + ordinal;
    }
}
