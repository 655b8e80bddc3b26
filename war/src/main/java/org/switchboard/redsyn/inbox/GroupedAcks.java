package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.redsyn.store.GroupedUpdates;
import org.switchboard.redsyn.store.RelayWriter;
import org.switchboard.json.Jsons;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.MessageEntity;

/**
 * Acks with their usual case ({@link MessageEntity#ACK_TAKEN_SQL}: one id, a plain message this agent took)
 * committed with other requests' updates by the {@link RelayWriter}. The request is answered only after the
 * commit holding its update. When the statement changes nothing, or the writer cannot take it, the ack
 * runs in its own transaction ({@link InboxService#ackRead}), which tells every other outcome apart.
 */
@ApplicationScoped
public class GroupedAcks {

    private static final Logger LOG = Logger.getLogger(GroupedAcks.class.getName());

    @Inject
    InboxService inbox;

    @Inject
    AgentService agents;

    @Inject
    RelayWriter writer;

    /** Confirms taken messages: the usual case grouped, every other one by {@link InboxService#ackRead}. */
    public JsonObject ack(Caller caller, Address address, List<String> ids) {
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        long now = System.currentTimeMillis();
        if (ids.size() != 1) {
            return inbox.ackRead(agent, ids, now);
        }
        String id = ids.get(0);
        Integer changed = null;
        try {
            // no transaction and no connection held while waiting: the writer needs one from the same pool
            changed = writer.submit(new GroupedUpdates.Update(MessageEntity.ACK_TAKEN_SQL,
                    List.of(DeliveryState.DONE, now, id, agent.id(), DeliveryState.TAKEN))).join();
        } catch (CompletionException | CancellationException e) {
            // nothing of it committed that the read below would not see: it gives the answer
            LOG.log(Level.FINE, "redsyn: grouped ack not applied, acking in the request's transaction", e);
        }
        if (changed != null && changed == 1) {
            return ackedOne(id);
        }
        return inbox.ackRead(agent, ids, now);
    }

    /** The answer to an ack of one id that {@link MessageEntity#ACK_TAKEN_SQL} ended. */
    private static JsonObject ackedOne(String id) {
        return Jsons.PROVIDER.createObjectBuilder().add("acked", Jsons.PROVIDER.createArrayBuilder().add(id))
                .add("not_acked", Jsons.PROVIDER.createArrayBuilder()).build();
    }
}
