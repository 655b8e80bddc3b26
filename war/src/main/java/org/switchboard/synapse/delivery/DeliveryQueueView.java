package org.switchboard.synapse.delivery;

/**
 * The operator's read-only rows of the delivery queue (JMX and the console show them): one request's
 * identities and progress (never its body), and one audience's backlog of undelivered notifications.
 */
public final class DeliveryQueueView {

    private DeliveryQueueView() {
    }

    /** One request as the operator sees it; {@code deadline} in epoch seconds, {@code stage} its wire name. */
    public record Request(String operationKey, String requestId, String sender, String target, String targetIncarnation,
                          String taskId, String requestedMode, String selectedMode, String stage, boolean cancelRequested,
                          double deadline, long ordinal, long latestEventSeq) {

        static Request of(Aggregate a) {
            DeliveryIntent i = a.intent();
            return new Request(a.operationKey(), i.requestId(), i.sender(), i.target(), i.targetIncarnation(), i.taskId(),
                    i.mode(), a.selectedMode(), a.stage().wire(), a.cancelRequested(), i.deadline(), a.ordinal(),
                    a.latestEventSeq());
        }
    }

    /** Notifications no socket of {@code audience} has taken yet: how many, and when the oldest was made (epoch seconds). */
    public record AudienceBacklog(String audience, int pending, double oldestAt) {
    }
}
