package org.switchboard.ops.jmx;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.switchboard.ops.operator.JournalOperations;
import org.switchboard.ops.operator.OperatorOperations;
import org.switchboard.ops.operator.OperatorService;
import org.switchboard.ops.operator.QueueOperations;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.delivery.DeliveryQueueView;

/**
 * The operator services as the MBeans call them: an EJB, because JMX calls arrive on the connector's
 * RMI threads, outside any application invocation, and the EJB container gives each call one (naming,
 * class loader, a JTA transaction the REDSYN reads' entity managers join). It only delegates.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@Local(OperatorOperations.class)
public class JmxOperations implements OperatorOperations {

    @Inject
    OperatorService operator;

    @Override
    public Map<String, Long> counters() {
        return operator.counters();
    }

    @Override
    public List<SynapseOperations.RosterEntry> roster() {
        return operator.roster();
    }

    @Override
    public String disconnect(String connection, String reason, String principal) {
        return operator.disconnect(connection, reason, principal);
    }

    @Override
    public List<TaskClaim> claims() {
        return operator.claims();
    }

    @Override
    public TaskClaim forceRelease(String taskId, String reason, String principal) {
        return operator.forceRelease(taskId, reason, principal);
    }

    @Override
    public SortedMap<String, Long> mailboxBacklog() {
        return operator.mailboxBacklog();
    }

    @Override
    public JsonObject board() {
        return operator.board();
    }

    @Override
    public JournalOperations.Stats journalStats() {
        return operator.journalStats();
    }

    @Override
    public String backup(String principal) {
        return operator.backup(principal);
    }

    @Override
    public SortedMap<String, long[]> inboxDepths() {
        return operator.inboxDepths();
    }

    @Override
    public List<WebhookDelivery> webhookQueue() {
        return operator.webhookQueue();
    }

    @Override
    public void retryWebhook(long messageSeq, String principal) {
        operator.retryWebhook(messageSeq, principal);
    }

    @Override
    public void dropWebhook(long messageSeq, String reason, String principal) {
        operator.dropWebhook(messageSeq, reason, principal);
    }

    @Override
    public List<JsonObject> planUsage() {
        return operator.planUsage();
    }

    @Override
    public QueueOperations.DeliveryQueue deliveryQueue() {
        return operator.deliveryQueue();
    }

    @Override
    public DeliveryQueueView.Request deliveryRequest(String operationKey) {
        return operator.deliveryRequest(operationKey);
    }

    @Override
    public QueueOperations.ForwardQueue forwardQueue() {
        return operator.forwardQueue();
    }
}
