package org.switchboard.redsyn.store;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.switchboard.journal.LocalTransaction;
import org.switchboard.lifecycle.ExecutorStop;

/**
 * The relay's grouped writer: one thread ({@code redsyn-relay-writer}, on the journal's group-commit engine)
 * commits the writes of many requests together: the rows of sends, the leases of takes and the usual acks.
 * A commit costs about the same for one row or twenty, and was a third of a request's CPU.
 */
@ApplicationScoped
public class RelayWriter {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    /**
     * Longest a batch waits for more updates to share its commit, only while they keep coming (one came
     * within four times this before it): near the journal's own floor for appends a client waits on.
     */
    static final long LINGER_NANOS = 2_000_000L;

    private ExecutorStop.TrackedThreads ownThreads;
    private GroupedUpdates writer;

    @PostConstruct
    void start() {
        ownThreads = ExecutorStop.tracked(threads);
        writer = new GroupedUpdates(updates -> commit(dataSource, updates), 256, 10_000, LINGER_NANOS);
        writer.start(ownThreads, "redsyn-relay-writer");
    }

    /** A writer started outside a container, on a given database and thread factory (unit tests). */
    public static RelayWriter started(DataSource dataSource, ManagedThreadFactory threads) {
        RelayWriter writer = new RelayWriter();
        writer.dataSource = dataSource;
        writer.threads = threads;
        writer.start();
        return writer;
    }

    /** Stops taking writes, commits what is queued, and waits briefly for the thread to end. */
    @PreDestroy
    public void stop() {
        if (writer != null) {
            writer.close();
            // its thread ends (and the container closes what it used) before the persistence unit does
            ExecutorStop.awaitEnded(Duration.ofSeconds(1), ownThreads);
        }
    }

    /**
     * Queues an update: its row count once its commit is done, or a failure (the writer refused it with
     * {@link GroupedUpdates.UnavailableException}, or it failed alone and committed nothing).
     */
    public CompletableFuture<Integer> submit(GroupedUpdates.Update update) {
        GroupedUpdates w = writer;
        return w != null ? w.submit(update) : CompletableFuture.failedFuture(new GroupedUpdates.UnavailableException("relay writer never started"));
    }

    /**
     * Queues statements that commit together or not at all: their row counts once committed, or a failure
     * (refused as above, or failed alone and committed nothing).
     */
    public CompletableFuture<int[]> submitUnit(List<GroupedUpdates.Update> unit) {
        GroupedUpdates w = writer;
        return w != null ? w.submitUnit(unit) : CompletableFuture.failedFuture(new GroupedUpdates.UnavailableException("relay writer never started"));
    }

    /** Transactions the writer has committed since start (each carries the updates of many requests). */
    public long commits() {
        GroupedUpdates w = writer;
        return w == null ? 0 : w.batches();
    }

    /** Updates those transactions carried: a send's inserts, a take's lease of one message, an ack. */
    public long updates() {
        GroupedUpdates w = writer;
        return w == null ? 0 : w.updates();
    }

    /** Runs updates on the caller's thread, in their own transaction: for those the writer refused. */
    public int[] commitNow(List<GroupedUpdates.Update> updates) throws SQLException {
        return commit(dataSource, updates);
    }

    /** Runs the updates in order in one local transaction on a pooled connection and commits it. */
    public static int[] commit(DataSource dataSource, List<GroupedUpdates.Update> updates) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return commit(connection, updates);
        }
    }

    /** As above on a given connection (tests use H2 directly); rolls back and throws on any failure. */
    public static int[] commit(Connection connection, List<GroupedUpdates.Update> updates) throws SQLException {
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
