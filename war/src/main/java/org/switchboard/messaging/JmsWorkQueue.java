package org.switchboard.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConnectionFactoryDefinition;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;

/**
 * {@link WorkQueue} on the ActiveMQ resource adapter. Uses the classic JMS API because the adapter's
 * connection factory does not offer {@code JMSContext}; delays use the broker's persistent scheduler.
 */
@ApplicationScoped
@JMSConnectionFactoryDefinition(
        name = JmsWorkQueue.FACTORY,
        interfaceName = "jakarta.jms.ConnectionFactory",
        resourceAdapter = JmsWorkQueue.RESOURCE_ADAPTER)
@JMSDestinationDefinition(
        name = JmsWorkQueue.QUEUE,
        interfaceName = "jakarta.jms.Queue",
        // WildFly needs the adapter's admin object class spelled out (Payara finds it from the interface).
        className = "org.apache.activemq.command.ActiveMQQueue",
        resourceAdapter = JmsWorkQueue.RESOURCE_ADAPTER,
        // The adapter's admin object (ActiveMQQueue) takes the queue name as PhysicalName. No
        // destinationName: the container passes it on as a "Name" property, which ActiveMQQueue has
        // no setter for (RAR8000/RAR7097 warnings on first use).
        properties = "PhysicalName=" + JmsWorkQueue.QUEUE_NAME)
public class JmsWorkQueue implements WorkQueue {

    /** Module name of the deployed adapter (the RAR's file name without extension). */
    public static final String RESOURCE_ADAPTER = "activemq-rar";
    public static final String FACTORY = "java:app/jms/switchboard";
    public static final String QUEUE = "java:app/jms/work";
    public static final String QUEUE_NAME = "switchboard.work";
    static final String KIND = "kind";
    /** ActiveMQ's scheduler property: milliseconds before the broker hands the message out. */
    static final String SCHEDULED_DELAY = "AMQ_SCHEDULED_DELAY";

    @Resource(lookup = FACTORY)
    ConnectionFactory factory;

    @Resource(lookup = QUEUE)
    Queue queue;

    @Override
    public void submit(String kind, String body, Duration delay) {
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer producer = session.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            TextMessage message = session.createTextMessage(body);
            message.setStringProperty(KIND, kind);
            long millis = delay == null ? 0 : delay.toMillis();
            if (millis > 0) {
                message.setLongProperty(SCHEDULED_DELAY, millis);
            }
            producer.send(message);
        } catch (JMSException e) {
            throw new IllegalStateException("work queue unavailable: " + e.getMessage(), e);
        }
    }

    /** True when a connection to the broker can be opened (used by the readiness check). */
    public boolean reachable() {
        try (Connection connection = factory.createConnection()) {
            return true;
        } catch (JMSException | RuntimeException e) {
            return false;
        }
    }
}
