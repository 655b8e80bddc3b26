package org.switchboard.messaging;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Takes work items off the broker queue and hands each to the {@link WorkHandler} for its kind.
 * Once the application stops ({@link WorkDrain}) it hands items back to the broker instead.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = JmsWorkQueue.RESOURCE_ADAPTER),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "destination", propertyValue = JmsWorkQueue.QUEUE_NAME),
    @ActivationConfigProperty(propertyName = "maximumRedeliveries", propertyValue = "5"),
    @ActivationConfigProperty(propertyName = "initialRedeliveryDelay", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "useExponentialBackOff", propertyValue = "true"),
})
public class WorkConsumer implements MessageListener {

    private static final Logger LOG = Logger.getLogger(WorkConsumer.class.getName());
    /** One per application: the consumer's instances are pooled, the stop drains them all. */
    static final WorkGate GATE = new WorkGate();

    @Resource
    MessageDrivenContext context;

    @Inject
    @Any
    Instance<WorkHandler> handlers;

    @Override
    public void onMessage(Message message) {
        if (!GATE.enter()) {
            handBack();
            return;
        }
        try {
            String kind = message.getStringProperty(JmsWorkQueue.KIND);
            String body = message instanceof TextMessage text ? text.getText() : null;
            int deliveryCount = message.propertyExists("JMSXDeliveryCount")
                    ? message.getIntProperty("JMSXDeliveryCount") : 1;
            WorkHandler handler = find(kind);
            if (handler == null) {
                LOG.warning(() -> "no handler for work kind '" + kind + "'; dropped");
                return;
            }
            handler.handle(body, deliveryCount);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        } catch (RuntimeException | LinkageError e) {
            if (!GATE.closed()) {
                throw e;
            }
            // The stop took the application's classes or resources away under a running item: not a
            // fault of the item, and the broker (or the webhook recovery sweep) hands it out again.
            // No lambda here: its class might no longer load either.
            LOG.info("a work item was cut short by the stop (" + e.getClass().getName()
                    + "); it runs again after the next start");
            handBack();
        } catch (Exception e) {
            LOG.log(Level.FINE, "work item failed; the broker will redeliver", e);
            throw new IllegalStateException(e);
        } finally {
            GATE.leave();
        }
    }

    /** Rolls the delivery back so the broker keeps the item for the next start. */
    private void handBack() {
        try {
            context.setRollbackOnly();
        } catch (IllegalStateException | NullPointerException noTransaction) {
            // Delivered outside a transaction: the item is acknowledged; the webhook recovery sweep
            // finds its delivery row overdue after the next start.
        }
    }

    private WorkHandler find(String kind) {
        for (WorkHandler handler : handlers) {
            if (handler.kind().equals(kind)) {
                return handler;
            }
        }
        return null;
    }
}
