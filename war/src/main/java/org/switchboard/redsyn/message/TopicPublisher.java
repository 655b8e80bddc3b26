package org.switchboard.redsyn.message;

import jakarta.json.JsonObject;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.Caller;

/** Publishes an event to a topic (one copy per subscribed agent): the seam the topic feature plugs into. */
public interface TopicPublisher {

    /** Stores the event's copies and returns the 201 reply ({@code id}, {@code thread}, {@code to}, {@code signed}). */
    JsonObject publish(Caller caller, AgentInfo from, EnvelopeDraft draft, String messageId, SignatureVerdict verdict);

    /** True when {@code id} is an event published to a topic (nobody answers those). */
    default boolean published(String id) {
        return false;
    }
}
