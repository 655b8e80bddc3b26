package org.switchboard.ops.operator;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.switchboard.synapse.claims.TaskClaim;

/**
 * Everything the operator can see and do, as one interface so the JMX side can call it through a
 * container context proxy (JMX calls arrive on RMI threads that know nothing of the application).
 * Every mutating method takes the acting principal and journals an {@link OperatorAudit} event.
 */
public interface OperatorOperations {

    /** One open webhook delivery (retry queue row). */
    record WebhookDelivery(long messageSeq, String messageId, long agentId, int attemptsFailed, long dueAt, boolean inFlight) {
    }

    /** Live figures for the console's counters. */
    Map<String, Long> counters();

    List<SynapseOperations.RosterEntry> roster();

    /** Closes a socket (by name or connection id); returns the connection id. */
    String disconnect(String connection, String reason, String principal);

    List<TaskClaim> claims();

    /** Releases a live claim whoever holds it; returns the claim released. */
    TaskClaim forceRelease(String taskId, String reason, String principal);

    SortedMap<String, Long> mailboxBacklog();

    JsonObject board();

    JournalOperations.Stats journalStats();

    /** Writes an online backup; returns its path. */
    String backup(String principal);

    /** Waiting REDSYN messages per agent address: {@code [queued, taken]}. */
    SortedMap<String, long[]> inboxDepths();

    List<WebhookDelivery> webhookQueue();

    /** Makes a delivery's next attempt due now. */
    void retryWebhook(long messageSeq, String principal);

    /** Abandons a delivery (its sender is told). */
    void dropWebhook(long messageSeq, String reason, String principal);

    /** Usage against the plan, one object per organisation (as {@code GET /orgs/{org}/usage} shows it). */
    List<JsonObject> planUsage();

    /** SYNAPSE session-bound delivery: open requests per stage, the oldest ones, notification backlogs. */
    QueueOperations.DeliveryQueue deliveryQueue();

    /** One delivery request by its {@code operation_key}. */
    org.switchboard.synapse.delivery.DeliveryQueueView.Request deliveryRequest(String operationKey);

    /** The cross-hub forward outbox: pending per peer and the oldest pending forwards. */
    QueueOperations.ForwardQueue forwardQueue();
}
