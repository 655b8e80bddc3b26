package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.servlet.ServletRequest;
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
    GroupedLeases leases;

    @Inject
    AgentService agents;

    @Inject
    InboxWaiters waiters;

    @Inject
    RedsynConfig config;

    /**
     * Answers {@code response} with {@code {"items": [...]}}, now or when something arrives;
     * {@code request} leads to the connection, so a poll whose client has gone takes nothing.
     */
    public void poll(Caller caller, Address address, Integer wait, Integer lease, String replyTo, boolean peek, AsyncResponse response,
                     ServletRequest request) {
        // the caller's agent (a cached lookup, no transaction); the call counts as its heartbeat
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        agents.heartbeat(agent.id(), caller.node());
        if (peek) {
            response.resume(InboxWaiters.items(inbox.peek(agent.id(), replyTo)));
            return;
        }
        int leaseSeconds = LeaseRules.leaseSeconds(lease, config.leaseDefaultSeconds(), config.leaseMaxSeconds());
        int waitSeconds = LeaseRules.waitSeconds(wait, config.waitMaxSeconds());
        Taker taker = new Taker() {
            @Override
            public Taken take() {
                return leases.take(agent.id(), caller.node(), leaseSeconds, replyTo);
            }

            @Override
            public void giveBack(Taken taken) {
                inbox.giveBack(taken);
            }
        };
        PollConnection connection = waiters.connection(request);
        if (waitSeconds == 0) {
            waiters.takeNow(agent.id(), response, taker, connection);
        } else {
            waiters.park(agent.id(), response, waitSeconds, taker, connection);
        }
    }
}
