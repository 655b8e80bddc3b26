package org.switchboard.redsyn.inbox;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.switchboard.journal.LocalTransaction;
import org.switchboard.json.Jsons;
import org.switchboard.lifecycle.ExecutorStop;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.MessageEntity;

/**
 * Acks with their usual case ({@link MessageEntity#ACK_TAKEN_SQL}: one id, a plain message this agent took)
 * committed by one writer for many requests ({@link GroupedUpdates}): a commit costs about the same for one
 * row or twenty, and was a third of an ack's CPU. The request is answered only after the commit holding
 * its update. When the statement changes nothing, or the writer cannot take it, the ack runs as before in
 * its own transaction ({@link InboxService#ackRead}), which tells every other outcome apart.
 */
@ApplicationScoped
public class GroupedAcks {

    private static final Logger LOG = Logger.getLogger(GroupedAcks.class.getName());

    @Inject
    InboxService inbox;

    @Inject
    AgentService agents;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    /**
     * Longest a batch of acks waits for more to share its commit, only while acks keep coming (one came
     * within four times this before it): near the journal's own floor for appends a client waits on.
     */
    static final long LINGER_NANOS = 2_000_000L;

    private ExecutorStop.TrackedThreads ownThreads;
    private GroupedUpdates writer;

    @PostConstruct
    void start() {
        ownThreads = ExecutorStop.tracked(threads);
        writer = new GroupedUpdates(updates -> commit(dataSource, updates), 256, 10_000, LINGER_NANOS);
        writer.start(ownThreads, "redsyn-ack-writer");
    }

    @PreDestroy
    void stop() {
        if (writer != null) {
            writer.close();
            // its thread ends (and the container closes what it used) before the persistence unit does
            ExecutorStop.awaitEnded(Duration.ofSeconds(1), ownThreads);
        }
    }

    /** Confirms taken messages: the usual case grouped, every other one by {@link InboxService#ackRead}. */
    public JsonObject ack(Caller caller, Address address, List<String> ids) {
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        long now = System.currentTimeMillis();
        GroupedUpdates w = writer;
        if (w == null || ids.size() != 1) {
            return inbox.ackRead(agent, ids, now);
        }
        String id = ids.get(0);
        Integer changed = null;
        try {
            // no transaction and no connection held while waiting: the writer needs one from the same pool
            changed = w.submit(new GroupedUpdates.Update(MessageEntity.ACK_TAKEN_SQL,
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

    /** Runs the updates in order in one local transaction on a pooled connection and commits it. */
    static int[] commit(DataSource dataSource, List<GroupedUpdates.Update> updates) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return commit(connection, updates);
        }
    }

    /** As above on a given connection (tests use H2 directly); rolls back and throws on any failure. */
    static int[] commit(Connection connection, List<GroupedUpdates.Update> updates) throws SQLException {
        return LocalTransaction.run(connection, c -> run(c, updates));
    }

    /** Runs the updates in order, one prepared statement per distinct statement text; their row counts. */
    private static int[] run(Connection connection, List<GroupedUpdates.Update> updates) throws SQLException {
        Map<String, PreparedStatement> statements = new HashMap<>();
        try {
            int[] counts = new int[updates.size()];
            for (int i = 0; i < updates.size(); i++) {
                GroupedUpdates.Update update = updates.get(i);
                PreparedStatement statement = statements.get(update.sql());
                if (statement == null) {
                    statement = connection.prepareStatement(update.sql());
                    statements.put(update.sql(), statement);
                }
                for (int p = 0; p < update.params().size(); p++) {
                    statement.setObject(p + 1, update.params().get(p));
                }
                counts[i] = statement.executeUpdate();
            }
            return counts;
        } finally {
            for (PreparedStatement statement : statements.values()) {
                try {
                    statement.close();
                } catch (SQLException ignored) {
                    // the connection goes back to the pool, which closes what is left
                }
            }
        }
    }
}
