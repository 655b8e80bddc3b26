package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.AsyncResponse;
import java.util.List;
import jakarta.json.JsonObject;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;

/** {@code GET /inbox/...}: take now, or park the poll until something arrives or the wait ends. */
@ApplicationScoped
public class InboxPolling {

    @Inject
    InboxService inbox;

    @Inject
    AgentService agents;

    @Inject
    InboxWaiters waiters;

    @Inject
    RedsynConfig config;

    /** Answers {@code response} with {@code {"items": [...]}}, now or when something arrives. */
    public void poll(Caller caller, Address address, Integer wait, Integer lease, String replyTo, boolean peek, AsyncResponse response) {
        // the caller's agent (a cached lookup, no transaction); the call counts as its heartbeat
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        agents.heartbeat(agent.id(), caller.node());
        if (peek) {
            response.resume(InboxWaiters.items(inbox.peek(agent.id(), replyTo)));
            return;
        }
        int leaseSeconds = LeaseRules.leaseSeconds(lease, config.leaseDefaultSeconds(), config.leaseMaxSeconds());
        int waitSeconds = LeaseRules.waitSeconds(wait, config.waitMaxSeconds());
        List<JsonObject> items = inbox.take(agent.id(), caller.node(), leaseSeconds, replyTo);
        if (!items.isEmpty() || waitSeconds == 0) {
            response.resume(InboxWaiters.items(items));
            return;
        }
        waiters.park(agent.id(), response, waitSeconds, () -> inbox.take(agent.id(), caller.node(), leaseSeconds, replyTo));
    }
}
