package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.journal.OfflineDatabase;
import org.switchboard.journal.GroupCommitPolicy;
import org.switchboard.journal.GroupCommitter;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.SequencedBatch;

/**
 * Micro benchmark of the journal's group commit alone, outside the server: the production
 * {@link GroupCommitter} (same policy, same encoding) over a plain JDBC sink that writes the same
 * table to an H2 file with the H2 version Payara Micro ships and {@code WRITE_DELAY=0}, one
 * transaction per batch. Not part of the default run (the name does not end in IT); see
 * src/site/markdown/benchmarks.md. Properties: {@code bench.appends} (default 300000),
 * {@code bench.threads} (16), {@code bench.window} (256 in flight per thread), {@code bench.batch}
 * (policy default), {@code bench.warmup} (100000 appends before measuring).
 */
class JournalGroupCommitBench {

    private static final JsonProvider JSON = JsonProvider.provider();

    @Test
    void groupCommitThroughputOnAnH2File() throws Exception {
        int appends = Integer.getInteger("bench.appends", 300_000);
        int threads = Integer.getInteger("bench.threads", 16);
        int window = Integer.getInteger("bench.window", 256);
        GroupCommitPolicy defaults = GroupCommitPolicy.DEFAULT;
        GroupCommitPolicy policy = new GroupCommitPolicy(Integer.getInteger("bench.batch", defaults.maxRowsPerBatch()),
                defaults.maxQueuedRows(), defaults.idleParkNanos());
        Path base = Files.createDirectories(Path.of("target", "bench").toAbsolutePath());
        Path dir = Files.createTempDirectory(base, "journal-");
        String url = "jdbc:h2:file:" + dir.resolve("journal").toAbsolutePath() + ";WRITE_DELAY=0";

        try (Connection connection = OfflineDatabase.openUrl(url)) {
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE journal_event (seq BIGINT PRIMARY KEY, kind VARCHAR(64) NOT NULL,"
                        + " payload VARCHAR(4194304) NOT NULL, appended_at DOUBLE NOT NULL)");
            }
            connection.setAutoCommit(false);
            ExecutorService completions = Executors.newSingleThreadExecutor();
            GroupCommitter committer = new GroupCommitter(policy, batch -> insert(connection, batch), completions,
                    () -> System.currentTimeMillis() / 1000.0, 0, 0);
            committer.start(Thread::new);

            int warmup = Integer.getInteger("bench.warmup", 100_000);
            drive(committer, warmup / threads, threads, window, new long[(warmup / threads) * threads]);
            long batchesBefore = committer.batchesCommitted();
            int perThread = appends / threads;
            long[] latencies = new long[perThread * threads];
            long started = System.nanoTime();
            AtomicInteger next = drive(committer, perThread, threads, window, latencies);
            long elapsed = System.nanoTime() - started;
            committer.close();
            completions.shutdown();

            int committed = next.get();
            long batches = committer.batchesCommitted() - batchesBefore;
            System.out.printf("journal group commit: %d appends by %d threads in %.2f s = %.0f appends/s;"
                            + " %d transactions (%.1f events each); append->ack %s%n",
                    committed, threads, elapsed / 1e9, committed / (elapsed / 1e9), batches,
                    committed / (double) batches, new Percentiles(latencies, committed).summary());
            assertEquals(perThread * threads, committed, "every append acknowledged");
            try (Statement count = connection.createStatement();
                 ResultSet rows = count.executeQuery("SELECT COUNT(*), MAX(seq) FROM journal_event")) {
                rows.next();
                long stored = (long) (warmup / threads) * threads + committed;
                assertEquals(stored, rows.getLong(1));
                assertEquals(stored, rows.getLong(2), "seqs gapless when nothing failed");
            }
        }
    }

    /** {@code threads} appenders each make {@code perThread} appends with {@code window} in flight; returns the ack count. */
    private static AtomicInteger drive(GroupCommitter committer, int perThread, int threads, int window, long[] latencies)
            throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService appenders = Executors.newFixedThreadPool(threads);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String sender = "bench/s" + t;
            done.add(CompletableFuture.runAsync(() -> {
                Semaphore inFlight = new Semaphore(window);
                for (int i = 0; i < perThread; i++) {
                    inFlight.acquireUninterruptibly();
                    JsonObject chat = JSON.createObjectBuilder().add("type", "chat").add("sender", sender)
                            .add("target", "bench/r").add("payload", "message " + i)
                            .add("timestamp", System.currentTimeMillis() / 1000.0).add("msg_id", i).build();
                    long sent = System.nanoTime();
                    committer.submit(List.of(new JournalEvent.Draft("chat", chat)), List.of())
                            .whenComplete((seqs, error) -> {
                                if (error == null) {
                                    latencies[next.getAndIncrement()] = System.nanoTime() - sent;
                                }
                                inFlight.release();
                            });
                }
                inFlight.acquireUninterruptibly(window);
            }, appenders));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        appenders.shutdown();
        return next;
    }

    private static void insert(Connection connection, SequencedBatch batch) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO journal_event (seq, kind, payload, appended_at) VALUES (?, ?, ?, ?)")) {
            for (SequencedBatch.Event event : batch.events()) {
                insert.setLong(1, event.seq());
                insert.setString(2, event.kind());
                insert.setString(3, event.payloadJson());
                insert.setDouble(4, event.appendedAt());
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        }
    }
}
