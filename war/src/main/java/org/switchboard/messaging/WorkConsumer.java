package org.switchboard.messaging;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Takes work items off the broker queue and hands each to the {@link WorkHandler} for its kind. */
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

    @Inject
    @Any
    Instance<WorkHandler> handlers;

    @Override
    public void onMessage(Message message) {
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
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            LOG.log(Level.FINE, "work item failed; the broker will redeliver", e);
            throw new IllegalStateException(e);
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
