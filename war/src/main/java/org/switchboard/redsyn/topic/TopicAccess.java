package org.switchboard.redsyn.topic;

import java.util.Optional;
import org.switchboard.redsyn.link.ExposureKind;
import org.switchboard.redsyn.link.LinkSnapshot;

/**
 * Who may publish to, listen to and receive from a topic of another organisation. Inside its own
 * organisation a topic is open to every member's agents; across organisations it takes an active
 * link on which the topic's organisation exposes it ({@code pub} to publish, {@code sub} to listen),
 * and what enters an organisation passes that organisation's rules for the link.
 */
public final class TopicAccess {

    private TopicAccess() {
    }

    /**
     * Why {@code publisherOrg} may not publish to {@code topic}, or empty when it may.
     *
     * @param link the link between the publisher's and the topic's organisations (unused when they are the same)
     */
    public static Optional<String> publishRefusal(String publisherOrg, TopicAddress topic, LinkSnapshot link,
                                                  boolean signed, String clientIp) {
        if (publisherOrg.equals(topic.org())) {
            return Optional.empty();
        }
        if (!link.exposes(topic.org(), ExposureKind.PUB, topic.inside())) {
            return Optional.of("no active link lets " + publisherOrg + " publish to " + topic);
        }
        return link.entryRefusal(topic.org(), signed, clientIp);
    }

    /** Why an agent of {@code agentOrg} may not listen to {@code topic}, or empty when it may. */
    public static Optional<String> subscribeRefusal(String agentOrg, TopicAddress topic, LinkSnapshot link) {
        if (agentOrg.equals(topic.org())) {
            return Optional.empty();
        }
        if (!link.exposes(topic.org(), ExposureKind.SUB, topic.inside())) {
            return Optional.of("no active link lets " + agentOrg + " listen to " + topic);
        }
        return Optional.empty();
    }

    /**
     * Why an event of {@code topic} is not copied to a subscriber of {@code subscriberOrg}, checked
     * again at every fan-out: the link may have been revoked or the exposure removed since the
     * subscription, and the event must pass the subscriber organisation's rules for the link.
     */
    public static Optional<String> deliveryRefusal(String subscriberOrg, TopicAddress topic, LinkSnapshot link,
                                                   boolean signed, String clientIp) {
        if (subscriberOrg.equals(topic.org())) {
            return Optional.empty();
        }
        Optional<String> listening = subscribeRefusal(subscriberOrg, topic, link);
        if (listening.isPresent()) {
            return listening;
        }
        return link.entryRefusal(subscriberOrg, signed, clientIp);
    }
}
