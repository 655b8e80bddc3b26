package org.switchboard.redsyn.directory;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each agent was last seen and by which node. Kept in memory: every take is a heartbeat and must
 * not cost a write; an announce stores the time durably.
 */
@ApplicationScoped
public class PresenceTracker {

    /** The last heartbeat of an agent. */
    public record Seen(long at, String node) {
    }

    private final ConcurrentHashMap<Long, Seen> seen = new ConcurrentHashMap<>();

    /** Records a heartbeat. */
    public void beat(long agentId, String node, long now) {
        seen.put(agentId, new Seen(now, node));
    }

    /** The last heartbeat, or null when none since start. */
    public Seen lastSeen(long agentId) {
        return seen.get(agentId);
    }
}
