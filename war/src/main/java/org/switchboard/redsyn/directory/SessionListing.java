package org.switchboard.redsyn.directory;

import jakarta.json.JsonArrayBuilder;

/**
 * The agent's sessions as the directory shows them ({@code id}, {@code closed}; title, thread and
 * creation time for the owner only). Sessions belong to the message package, which implements this:
 * the directory names what it needs instead of reaching into message entities.
 */
public interface SessionListing {

    /** The newest 100 sessions of {@code agentId}, newest first; {@code owner} adds the private fields. */
    JsonArrayBuilder sessionsOf(long agentId, boolean owner);
}
