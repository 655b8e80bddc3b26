package org.switchboard.redsyn.topic;

import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.address.AddressException;
import org.switchboard.redsyn.address.AddressResolver;
import org.switchboard.redsyn.address.Names;

/**
 * A topic, {@code topic:org/team/name}. Short forms resolve from an agent's address like agent
 * addresses do: {@code topic:name} (the agent's team), {@code topic:team/name} (its organisation).
 */
public record TopicAddress(String org, String team, String name) {

    public TopicAddress {
        for (String part : new String[] {org, team, name}) {
            if (!Names.valid(part)) {
                throw new AddressException("'" + part + "' is not a valid name: lower-case letters, digits, '.', '-' or '_'");
            }
        }
    }

    /** The topic {@code text} means for {@code agent}; the {@code topic:} prefix may be left out. */
    public static TopicAddress resolve(String text, Address agent) {
        if (text == null || text.isBlank()) {
            throw new AddressException("topic is empty");
        }
        String path = AddressResolver.isTopic(text) ? text.substring(AddressResolver.TOPIC_PREFIX.length()) : text;
        String[] p = path.split("/", -1);
        return switch (p.length) {
            case 1 -> new TopicAddress(agent.org(), agent.team(), p[0]);
            case 2 -> new TopicAddress(agent.org(), p[0], p[1]);
            case 3 -> new TopicAddress(p[0], p[1], p[2]);
            default -> throw new AddressException("'" + text + "' is not a topic: topic:org/team/name");
        };
    }

    /** {@code team/name}: the topic inside its organisation, as link exposures name it. */
    public String inside() {
        return team + "/" + name;
    }

    /** {@code org/team/name}. */
    public String path() {
        return org + "/" + inside();
    }

    /** {@code topic:org/team/name}. */
    @Override
    public String toString() {
        return AddressResolver.TOPIC_PREFIX + path();
    }
}
