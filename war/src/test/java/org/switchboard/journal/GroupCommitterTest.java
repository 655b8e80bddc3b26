package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupCommitterTest {

    /** A sink that "stores" committed batches in memory, can hold commits back, and can refuse some. */
    private static final class MemorySink implements GroupCommitter.Sink {
        final List<SequencedBatch> committed = new CopyOnWriteArrayList<>();
        final List<SequencedBatch> refused = new CopyOnWriteArrayList<>();
        volatile CountDownLatch gate = new CountDownLatch(0);
        final CountDownLatch entered = new CountDownLatch(1);
        volatile long commitMillis;

        @Override
        public void commit(SequencedBatch batch) throws Exception {
            entered.countDown();
            gate.await();
            if (commitMillis > 0) {
                Thread.sleep(commitMillis);
            }
            if (batch.events().stream().anyMatch(e -> e.kind().equals("poison"))
                    || batch.sideRows().stream().anyMatch(r -> r.statement().equals("poison"))) {
                refused.add(batch);
                throw new java.sql.SQLException("constraint violated");
            }
            committed.add(batch);
        }

        List<Long> committedSeqs() {
            List<Long> seqs = new ArrayList<>();
            committed.forEach(b -> b.events().forEach(e -> seqs.add(e.seq())));
            return seqs;
        }
    }

    private final MemorySink sink = new MemorySink();
    private final ExecutorService completions = Executors.newSingleThreadExecutor();
    private GroupCommitter committer;

    private GroupCommitter start(GroupCommitPolicy policy, long lastSeq) {
        committer = new GroupCommitter(policy, sink, completions, () -> 1767226100.5, lastSeq, 0);
        committer.start(Thread::new);
        return committer;
    }

    @AfterEach
    void tearDown() {
        sink.gate.countDown();
        if (committer != null) {
            committer.close();
        }
        completions.shutdownNow();
    }

    private static JsonObject payload(int i) {
        return Json.createObjectBuilder().add("msg_id", i).add("payload", "hello " + i).build();
    }

    private static List<JournalEvent.Draft> one(String kind, int i) {
        return List.of(new JournalEvent.Draft(kind, payload(i)));
    }

    /** Submits one append and holds its commit in the sink until the test opens {@code sink.gate}. */
    private CompletableFuture<long[]> holdFirstCommit(int i) throws InterruptedException {
        sink.gate = new CountDownLatch(1);
        CompletableFuture<long[]> held = committer.submit(one("chat", i), List.of());
        assertTrue(sink.entered.await(5, TimeUnit.SECONDS));
        return held;
    }

    @Test
    void firstAppendAfterRestartContinuesFromTheStoredMaximum() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 41);

        long[] seqs = committer.submit(one("chat", 1), List.of()).get(5, TimeUnit.SECONDS);

        assertArrayEquals(new long[] {42}, seqs);
        assertEquals(42, committer.committedSeq());
        SequencedBatch.Event stored = sink.committed.get(0).events().get(0);
        assertEquals("chat", stored.kind());
        assertEquals(payload(1).toString(), stored.payloadJson());
        assertEquals(1767226100.5, stored.appendedAt());
    }

    @Test
    void eventsOfOneAppendGetConsecutiveSeqsInListOrderInOneTransaction() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        List<JournalEvent.Draft> drafts = List.of(new JournalEvent.Draft("chat", payload(1)),
                new JournalEvent.Draft("delivery_receipt_requested", payload(2)),
                new JournalEvent.Draft("delivery_receipt_immediate", payload(3)));

        long[] seqs = committer.submit(drafts, List.of()).get(5, TimeUnit.SECONDS);

        assertArrayEquals(new long[] {1, 2, 3}, seqs);
        assertEquals(1, sink.committed.size());
        assertEquals(List.of("chat", "delivery_receipt_requested", "delivery_receipt_immediate"),
                sink.committed.get(0).events().stream().map(SequencedBatch.Event::kind).toList());
    }

    @Test
    void concurrentAppendsShareTransactionsAndGetUniqueGaplessSeqs() throws Exception {
        sink.commitMillis = 2;
        start(new GroupCommitPolicy(64, 100_000, 1_000_000), 100);
        int threads = 8;
        int perThread = 500;
        ExecutorService appenders = Executors.newFixedThreadPool(threads);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(appenders.submit(() -> {
                List<CompletableFuture<long[]>> futures = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    futures.add(committer.submit(one("chat", i), List.of()));
                }
                List<Long> mine = new ArrayList<>();
                for (CompletableFuture<long[]> future : futures) {
                    mine.add(future.get(30, TimeUnit.SECONDS)[0]);
                }
                return mine;
            }));
        }
        Set<Long> all = new HashSet<>();
        for (Future<List<Long>> result : results) {
            List<Long> mine = result.get(60, TimeUnit.SECONDS);
            List<Long> sorted = new ArrayList<>(mine);
            Collections.sort(sorted);
            assertEquals(sorted, mine, "one thread's appends are sequenced in the order it made them");
            all.addAll(mine);
        }
        appenders.shutdown();

        int total = threads * perThread;
        assertEquals(total, all.size(), "no seq handed out twice");
        assertEquals(101L, Collections.min(all));
        assertEquals(100L + total, Collections.max(all));
        assertEquals(100L + total, committer.committedSeq());
        assertTrue(sink.committed.size() < total / 4, "appends were grouped: " + sink.committed.size() + " commits");
        assertTrue(sink.committed.stream().allMatch(b -> b.size() <= 64), "no batch above the policy bound");
        List<Long> committedOrder = sink.committedSeqs();
        List<Long> sortedCommitted = new ArrayList<>(committedOrder);
        Collections.sort(sortedCommitted);
        assertEquals(sortedCommitted, committedOrder, "batches commit in seq order");
    }

    @Test
    void afterASlowCommitASmallBatchWaitsForLaterAppends() throws Exception {
        sink.commitMillis = 100;
        start(new GroupCommitPolicy(512, 100_000, 1_000_000, 64, TimeUnit.SECONDS.toNanos(5)), 0);
        committer.submit(one("chat", 0), List.of()).get(5, TimeUnit.SECONDS);
        sink.commitMillis = 0;

        CompletableFuture<long[]> first = committer.submit(one("chat", 1), List.of());
        Thread.sleep(30);
        List<CompletableFuture<long[]>> later = new ArrayList<>();
        for (int i = 2; i <= 10; i++) {
            later.add(committer.submit(one("chat", i), List.of()));
        }

        assertArrayEquals(new long[] {2}, first.get(5, TimeUnit.SECONDS));
        for (CompletableFuture<long[]> future : later) {
            future.get(5, TimeUnit.SECONDS);
        }
        assertEquals(2, sink.committed.size(), "appends 30 ms apart shared the transaction after a 100 ms commit");
        assertEquals(10, sink.committed.get(1).size());
    }

    @Test
    void eachCommitIsCountedByHowLongItTook() throws Exception {
        sink.commitMillis = 30;
        start(new GroupCommitPolicy(512, 100_000, 1_000_000, 64, TimeUnit.MILLISECONDS.toNanos(50)), 0);
        committer.submit(one("chat", 0), List.of()).get(5, TimeUnit.SECONDS);
        sink.commitMillis = 0;
        committer.submit(one("chat", 1), List.of()).get(5, TimeUnit.SECONDS);

        long[] cumulative = committer.commitDurations().cumulative();
        assertEquals(2, cumulative[DurationHistogram.boundedBuckets()], "both commits counted");
        assertTrue(cumulative[4] <= 1, "the 30 ms commit is not among those within 20 ms");
    }

    @Test
    void aLoneAppendStillCommitsWhenNothingElseArrives() throws Exception {
        sink.commitMillis = 20;
        start(new GroupCommitPolicy(512, 100_000, 1_000_000, 64, TimeUnit.MILLISECONDS.toNanos(50)), 0);

        assertArrayEquals(new long[] {1}, committer.submit(one("chat", 0), List.of()).get(5, TimeUnit.SECONDS));
        assertArrayEquals(new long[] {2}, committer.submit(one("chat", 1), List.of()).get(5, TimeUnit.SECONDS));
        assertEquals(2, sink.committed.size());
    }

    @Test
    void theLingerFollowsThePreviousCommitUpToItsCapAndOnlyForSmallBatches() {
        GroupCommitPolicy policy = new GroupCommitPolicy(512, 100_000, 1_000_000, 64, 4_000_000);
        assertTrue(policy.shouldLinger(63));
        assertFalse(policy.shouldLinger(64));
        assertEquals(1_500_000, policy.lingerAfter(1_500_000, 0, false));
        assertEquals(4_000_000, policy.lingerAfter(90_000_000, 0, false));
        assertEquals(0, policy.lingerAfter(0, 0, false));
        assertEquals(1_000_000, GroupCommitPolicy.DEFAULT.lingerAfter(90_000_000, 0, false), "the default waits at most 1 ms");
        assertFalse(new GroupCommitPolicy(512, 100_000, 1_000_000).shouldLinger(1), "the 3-argument policy never waits");
        assertFalse(new GroupCommitPolicy(8, 100, 1_000_000, 64, 1_000_000).shouldLinger(8), "a full batch never waits");
    }

    @Test
    void flushedCompletesOnlyAfterEveryEarlierAppendCommittedAndWritesNothingItself() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        CompletableFuture<long[]> held = holdFirstCommit(1);
        CompletableFuture<long[]> queued = committer.submit(one("chat", 2), List.of());
        CompletableFuture<Void> flushed = committer.flushed();
        Thread.sleep(50);
        assertFalse(flushed.isDone(), "an earlier append is still uncommitted");
        sink.gate.countDown();

        flushed.get(5, TimeUnit.SECONDS);
        assertArrayEquals(new long[] {1}, held.get(5, TimeUnit.SECONDS));
        assertEquals(2, committer.committedSeq(), "both earlier appends committed before the flush completed");
        assertEquals(List.of(1L, 2L), sink.committedSeqs());
        assertEquals(2, queued.get(5, TimeUnit.SECONDS)[0]);

        int batches = sink.committed.size();
        committer.flushed().get(5, TimeUnit.SECONDS);
        assertEquals(batches, sink.committed.size(), "a flush with nothing before it opens no transaction");
        assertEquals(3, committer.submit(one("chat", 3), List.of()).get(5, TimeUnit.SECONDS)[0], "no seq spent on it");
    }

    @Test
    void flushedAfterCloseFails() {
        start(GroupCommitPolicy.DEFAULT, 0);
        committer.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> committer.flushed().get(1, TimeUnit.SECONDS));
        assertInstanceOf(GroupCommitter.JournalUnavailableException.class, e.getCause());
    }

    @Test
    void aFailingAppendFailsAloneAndItsSeqsAreNeverReused() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        CompletableFuture<long[]> blocker = holdFirstCommit(0);
        // These queue up behind the held commit and are drained together as one batch.
        CompletableFuture<long[]> before = committer.submit(one("chat", 1), List.of());
        CompletableFuture<long[]> poison = committer.submit(one("poison", 2), List.of());
        CompletableFuture<long[]> after = committer.submit(one("chat", 3), List.of());
        sink.gate.countDown();

        assertArrayEquals(new long[] {1}, blocker.get(5, TimeUnit.SECONDS));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> poison.get(5, TimeUnit.SECONDS));
        assertInstanceOf(java.sql.SQLException.class, failure.getCause());
        long beforeSeq = before.get(5, TimeUnit.SECONDS)[0];
        long afterSeq = after.get(5, TimeUnit.SECONDS)[0];
        assertTrue(beforeSeq < afterSeq, "order kept across the retry");

        Set<Long> burnt = new HashSet<>();
        sink.refused.forEach(b -> b.events().forEach(e -> burnt.add(e.seq())));
        assertEquals(2, sink.refused.size(), "the shared batch, then the poison alone");
        List<Long> committedSeqs = sink.committedSeqs();
        assertTrue(committedSeqs.stream().noneMatch(burnt::contains), "seqs of failed transactions are not reused");
        assertTrue(sink.committed.stream().flatMap(b -> b.events().stream()).noneMatch(e -> e.kind().equals("poison")),
                "nothing of the failed append was applied");
        long next = committer.submit(one("chat", 4), List.of()).get(5, TimeUnit.SECONDS)[0];
        assertTrue(next > Collections.max(burnt) && next > afterSeq);
        assertEquals(next, committer.committedSeq());
    }

    @Test
    void acknowledgementsArriveInSeqOrder() throws Exception {
        start(new GroupCommitPolicy(8, 1000, 1_000_000), 0);
        sink.gate = new CountDownLatch(1);
        List<Long> acknowledged = new CopyOnWriteArrayList<>();
        List<CompletableFuture<long[]>> futures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            CompletableFuture<long[]> future = committer.submit(one("chat", i), List.of());
            future.thenAccept(seqs -> acknowledged.add(seqs[0]));
            futures.add(future);
        }
        sink.gate.countDown();
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        completions.submit(() -> null).get(5, TimeUnit.SECONDS);

        List<Long> sorted = new ArrayList<>(acknowledged);
        Collections.sort(sorted);
        assertEquals(50, acknowledged.size());
        assertEquals(sorted, acknowledged);
        assertTrue(sink.committed.size() >= 50 / 8, "the 8-row bound split the backlog");
    }

    @Test
    void outboxRowsCommitWithTheirEventAndKeepCreationOrder() throws Exception {
        committer = new GroupCommitter(GroupCommitPolicy.DEFAULT, sink, completions, () -> 7.25, 0, 10);
        committer.start(Thread::new);
        JsonObject frame = Json.createObjectBuilder().add("type", "delivery_receipt").build();
        List<OutboxRow> rows = List.of(
                new OutboxRow("delivery-receipt:1:pending", 1, "pending", "proj/alice", frame, 0, false),
                new OutboxRow("delivery-receipt:1:immediate_delivered", 1, "immediate_delivered", "proj/alice", frame, 1, true));

        long[] seqs = committer.submit(one("delivery_receipt_immediate", 1), rows).get(5, TimeUnit.SECONDS);

        assertArrayEquals(new long[] {1}, seqs);
        SequencedBatch batch = sink.committed.get(0);
        assertEquals(1, batch.events().size());
        assertEquals(List.of(11L, 12L), batch.outbox().stream().map(SequencedBatch.Outbox::createdOrder).toList());
        assertNull(batch.outbox().get(0).deliveredAt());
        assertEquals(7.25, batch.outbox().get(1).deliveredAt());
        assertEquals(frame.toString(), batch.outbox().get(0).frameJson());
    }

    @Test
    void badInputIsRefusedOnTheCallersThreadWithoutTouchingTheDatabase() {
        start(GroupCommitPolicy.DEFAULT, 0);
        List<CompletableFuture<long[]>> refused = List.of(
                committer.submit(List.of(new JournalEvent.Draft(" ", payload(1))), List.of()),
                committer.submit(List.of(new JournalEvent.Draft("chat", null)), List.of()),
                committer.submit(List.of(new JournalEvent.Draft("k".repeat(65), payload(1))), List.of()),
                committer.submit(List.of(), List.of(new OutboxRow(null, 1, "pending", "a", payload(1), 0, false))));

        for (CompletableFuture<long[]> future : refused) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(1, TimeUnit.SECONDS));
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
        }
        assertTrue(sink.committed.isEmpty() && sink.refused.isEmpty());
        assertEquals(0, committer.committedSeq());
    }

    @Test
    void aFullQueueRefusesNewAppendsInsteadOfGrowingWithoutBound() throws Exception {
        start(new GroupCommitPolicy(2, 4, 1_000_000), 0);
        CompletableFuture<long[]> held = holdFirstCommit(0);
        List<CompletableFuture<long[]>> queued = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            queued.add(committer.submit(one("chat", i), List.of()));
        }
        CompletableFuture<long[]> overflow = committer.submit(one("chat", 99), List.of());

        ExecutionException e = assertThrows(ExecutionException.class, () -> overflow.get(1, TimeUnit.SECONDS));
        assertInstanceOf(GroupCommitter.JournalUnavailableException.class, e.getCause());
        sink.gate.countDown();
        held.get(5, TimeUnit.SECONDS);
        for (CompletableFuture<long[]> future : queued) {
            assertEquals(1, future.get(5, TimeUnit.SECONDS).length);
        }
    }

    @Test
    void closeCommitsWhatIsQueuedAndRefusesLaterAppends() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        sink.gate = new CountDownLatch(1);
        List<CompletableFuture<long[]>> queued = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            queued.add(committer.submit(one("chat", i), List.of()));
        }
        Thread closer = new Thread(committer::close);
        closer.start();
        sink.gate.countDown();
        closer.join(10_000);
        assertFalse(closer.isAlive());

        for (CompletableFuture<long[]> future : queued) {
            assertEquals(1, future.get(5, TimeUnit.SECONDS).length);
        }
        assertEquals(20, sink.committedSeqs().size());
        CompletableFuture<long[]> late = committer.submit(one("chat", 21), List.of());
        ExecutionException e = assertThrows(ExecutionException.class, () -> late.get(1, TimeUnit.SECONDS));
        assertInstanceOf(GroupCommitter.JournalUnavailableException.class, e.getCause());
    }

    /** A side row that only names its statement (the sink never binds it). */
    private record Row(String statement, String value) implements SideRow {
        @Override
        public void bind(java.sql.PreparedStatement insert) {
        }
    }

    @Test
    void sideRowsAttachedOnTheThreadRideInTheTransactionOfTheThreadsNextAppendOnly() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        Row nonce = new Row("INSERT nonce", "n1");
        SideRows.attach(nonce);

        long[] seqs = committer.submit(one("claim", 1), List.of()).get(5, TimeUnit.SECONDS);
        committer.submit(one("claim", 2), List.of()).get(5, TimeUnit.SECONDS);

        assertArrayEquals(new long[] {1}, seqs);
        SequencedBatch first = sink.committed.get(0);
        assertEquals(List.of(1L), first.events().stream().map(SequencedBatch.Event::seq).toList());
        assertEquals(List.of(nonce), first.sideRows(), "the row commits with the append's event");
        assertEquals(2, first.size());
        assertTrue(sink.committed.get(1).sideRows().isEmpty(), "the row left the thread with the first append");
        assertFalse(SideRows.attached());
    }

    @Test
    void sideRowsAloneCommitAndTakeNoSeq() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 7);
        Row nonce = new Row("INSERT nonce", "n1");

        long[] seqs = committer.submit(List.of(), List.of(), List.of(nonce)).get(5, TimeUnit.SECONDS);

        assertArrayEquals(new long[0], seqs);
        assertEquals(1, sink.committed.size(), "written, not skipped as a flush marker");
        assertEquals(List.of(nonce), sink.committed.get(0).sideRows());
        assertEquals(7, committer.committedSeq());
        assertArrayEquals(new long[] {8}, committer.submit(one("chat", 1), List.of()).get(5, TimeUnit.SECONDS));
    }

    @Test
    void anAppendWhoseSideRowCannotBeWrittenFailsWholeAndAloneNothingOfItApplied() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 0);
        CompletableFuture<long[]> blocker = holdFirstCommit(0);
        CompletableFuture<long[]> before = committer.submit(one("claim", 1), List.of(), List.of(new Row("INSERT nonce", "a")));
        CompletableFuture<long[]> poisoned = committer.submit(one("claim", 2), List.of(), List.of(new Row("poison", "b")));
        CompletableFuture<long[]> after = committer.submit(one("claim", 3), List.of(), List.of(new Row("INSERT nonce", "c")));
        sink.gate.countDown();

        blocker.get(5, TimeUnit.SECONDS);
        assertThrows(ExecutionException.class, () -> poisoned.get(5, TimeUnit.SECONDS));
        before.get(5, TimeUnit.SECONDS);
        after.get(5, TimeUnit.SECONDS);
        List<String> appliedPayloads = sink.committed.stream().flatMap(b -> b.events().stream())
                .map(SequencedBatch.Event::payloadJson).toList();
        assertFalse(appliedPayloads.contains(payload(2).toString()), "the poisoned append's event was not applied");
        assertTrue(appliedPayloads.contains(payload(1).toString()) && appliedPayloads.contains(payload(3).toString()));
        List<Object> appliedRows = new ArrayList<>();
        sink.committed.forEach(b -> appliedRows.addAll(b.sideRows()));
        assertEquals(List.of(new Row("INSERT nonce", "a"), new Row("INSERT nonce", "c")), appliedRows);
    }

    /** A side row that is written as a copy naming the first seq of its append. */
    private record SeqRow(String statement, long seq) implements SideRow {
        @Override
        public void bind(java.sql.PreparedStatement insert) {
        }

        @Override
        public SideRow sequenced(long firstSeq) {
            return new SeqRow(statement, firstSeq);
        }
    }

    @Test
    void aSideRowIsWrittenAsSequencedByTheFirstSeqOfItsOwnAppend() throws Exception {
        start(GroupCommitPolicy.DEFAULT, 40);
        CompletableFuture<long[]> blocker = holdFirstCommit(0);
        CompletableFuture<long[]> a = committer.submit(List.of(new JournalEvent.Draft("chat", payload(1)),
                new JournalEvent.Draft("receipt", payload(2))), List.of(), List.of(new SeqRow("INSERT ledger", -1)));
        CompletableFuture<long[]> b = committer.submit(one("chat", 3), List.of(), List.of(new SeqRow("INSERT ledger", -1)));
        CompletableFuture<long[]> alone = committer.submit(List.of(), List.of(), List.of(new SeqRow("INSERT ledger", -1)));
        sink.gate.countDown();
        blocker.get(5, TimeUnit.SECONDS);

        long first = a.get(5, TimeUnit.SECONDS)[0];
        long third = b.get(5, TimeUnit.SECONDS)[0];
        alone.get(5, TimeUnit.SECONDS);
        List<SideRow> rows = new ArrayList<>();
        sink.committed.forEach(batch -> rows.addAll(batch.sideRows()));
        assertEquals(List.of(new SeqRow("INSERT ledger", first), new SeqRow("INSERT ledger", third),
                new SeqRow("INSERT ledger", -1)), rows, "each row names its own append's first seq; an event-less one stays");
        assertEquals(first + 2, third);
    }

    @Test
    void aLingerFloorHoldsASmallBatchOnlyWhileMoreRowsAreExpectedWithinIt() {
        GroupCommitPolicy plain = GroupCommitPolicy.DEFAULT;
        GroupCommitPolicy floored = GroupCommitPolicy.DEFAULT.withLingerFloor(3_000_000);
        assertEquals(200_000, plain.lingerAfter(200_000, 5, false), "without a floor: the previous commit's time");
        assertEquals(3_000_000, floored.lingerAfter(200_000, 1.0, false), "with one and a row expected: at least the floor");
        assertEquals(3_000_000, floored.lingerAfter(50_000_000, 4, false), "the cap (1 ms) does not cut the floor");
        assertEquals(200_000, floored.lingerAfter(200_000, 0.4, false), "no row expected within the floor: no floor");
        assertTrue(new GroupCommitPolicy(512, 100_000, 1_000_000, 64, 0).withLingerFloor(1).shouldLinger(1),
                "a floor alone makes a small batch wait");
        assertFalse(floored.shouldLinger(64), "a batch of the linger size commits at once");
    }

    @Test
    void aBatchHoldingAPromptAppendWaitsThePromptFloorWhenItIsTheShorter() {
        GroupCommitPolicy policy = GroupCommitPolicy.DEFAULT.withLingerFloor(2_000_000).withPromptLingerFloor(1_000_000);
        assertEquals(2_000_000, policy.floorFor(false));
        assertEquals(1_000_000, policy.floorFor(true));
        assertEquals(1_000_000, policy.lingerAfter(200_000, 3, true), "prompt: its own floor");
        assertEquals(2_000_000, policy.lingerAfter(200_000, 3, false), "plain: the floor");
        assertEquals(2_000_000, GroupCommitPolicy.DEFAULT.withLingerFloor(2_000_000).lingerAfter(200_000, 3, true),
                "no prompt floor set: prompt appends wait the plain floor");
        assertEquals(500_000, GroupCommitPolicy.DEFAULT.withLingerFloor(500_000).withPromptLingerFloor(1_000_000)
                .floorFor(true), "a prompt floor longer than the floor never lengthens the wait");
        assertEquals(200_000, policy.lingerAfter(200_000, 0.5, true), "no row expected: no floor, prompt or not");
    }

    /**
     * A writer with a 4 s floor and the given prompt floor that believes rows are pouring in (a million a
     * second), so every small batch lingers.
     */
    private void startBelievingRowsPourIn(long promptFloorNanos) {
        committer = new GroupCommitter(new GroupCommitPolicy(512, 100_000, 1_000_000, 8, 0).withLingerFloor(4_000_000_000L)
                .withPromptLingerFloor(promptFloorNanos), sink, completions, () -> 1767226100.5, 0, 0, AppendRate.steady(1e-3));
        committer.start(Thread::new);
    }

    @Test
    void aPromptAppendShortensALingerAlreadyUnderWay() throws Exception {
        startBelievingRowsPourIn(100_000_000L);
        long started = System.nanoTime();
        CompletableFuture<long[]> plain = committer.submit(one("chat", 1), List.of());
        Thread.sleep(300);
        assertFalse(plain.isDone(), "a plain append lingers for the 4 s floor");
        CompletableFuture<long[]> prompt = committer.submit(one("delivery_transition", 2), List.of(), List.of(), true);
        assertArrayEquals(new long[] {2}, prompt.get(3, TimeUnit.SECONDS));
        assertArrayEquals(new long[] {1}, plain.get(3, TimeUnit.SECONDS));
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 2_000, "the prompt append cut the batch's wait to its 100 ms floor: " + millis + " ms");
        assertEquals(1, sink.committed.size(), "both appends rode in one transaction");
    }

    @Test
    void aPromptAppendAloneWaitsOnlyThePromptFloor() throws Exception {
        startBelievingRowsPourIn(50_000_000L);
        long started = System.nanoTime();
        committer.submit(one("delivery_transition", 1), List.of(), List.of(), true).get(3, TimeUnit.SECONDS);
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis >= 40 && millis < 2_000, "waited the 50 ms prompt floor, not the 4 s one: " + millis + " ms");
    }

    @Test
    void theLingerRowsSetWhenASmallBatchStopsWaitingAndNothingElse() {
        GroupCommitPolicy sixteen = GroupCommitPolicy.DEFAULT.withLingerFloor(2_000_000).withLingerRows(16);
        assertTrue(sixteen.shouldLinger(15), "under the rows: waits");
        assertFalse(sixteen.shouldLinger(16), "at the rows: commits at once");
        assertFalse(GroupCommitPolicy.DEFAULT.withLingerFloor(2_000_000).withLingerRows(0).shouldLinger(1), "0 never waits");
        assertEquals(2_000_000, sixteen.lingerFloorNanos());
        assertEquals(GroupCommitPolicy.DEFAULT.lingerNanos(), sixteen.lingerNanos());
        assertEquals(GroupCommitPolicy.DEFAULT.maxRowsPerBatch(), sixteen.maxRowsPerBatch());
    }

    @Test
    void sparseAppendsDoNotWaitTheFloor() throws Exception {
        // One append every 0.7 s: under one row expected within a 0.5 s floor, so none waits it.
        start(GroupCommitPolicy.DEFAULT.withLingerFloor(500_000_000L), 0);
        for (int i = 0; i < 3; i++) {
            if (i > 0) {
                Thread.sleep(700);
            }
            long started = System.nanoTime();
            committer.submit(one("chat", i), List.of()).get(5, TimeUnit.SECONDS);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < 400, "append " + i + " waited " + millis + " ms for rows that were not coming");
        }
    }

    @Test
    void aLingeringWriterCommitsAsSoonAsTheBatchIsFull() throws Exception {
        // A floor of 4 s, applied because the writer believes rows are pouring in (a million a second).
        committer = new GroupCommitter(new GroupCommitPolicy(512, 100_000, 1_000_000, 8, 0).withLingerFloor(4_000_000_000L),
                sink, completions, () -> 1767226100.5, 0, 0, AppendRate.steady(1e-3));
        committer.start(Thread::new);
        long started = System.nanoTime();
        List<CompletableFuture<long[]>> appends = new ArrayList<>();
        appends.add(committer.submit(one("chat", 100), List.of()));
        Thread.sleep(200); // the writer now lingers over its one-row batch
        assertFalse(appends.get(0).isDone(), "a lone row lingers while rows are believed to be coming");
        for (int i = 1; i < 8; i++) {
            appends.add(committer.submit(one("chat", 100 + i), List.of()));
        }
        for (CompletableFuture<long[]> append : appends) {
            append.get(3, TimeUnit.SECONDS);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 2_000, "the eighth row filled the batch and woke the writer: " + millis + " ms");
    }

    @Test
    void theWriterCountsItsCommitTimeAndEachAppendsWaitFromAppendToCommit() throws Exception {
        sink.commitMillis = 30;
        start(new GroupCommitPolicy(512, 100_000, 1_000_000), 0);
        CompletableFuture<long[]> first = committer.submit(one("chat", 1), List.of());
        first.get(5, TimeUnit.SECONDS);
        committer.submit(one("chat", 2), List.of()).get(5, TimeUnit.SECONDS);
        committer.flushed().get(5, TimeUnit.SECONDS);

        assertEquals(3, committer.appendsCommitted(), "two appends and the flush marker");
        assertEquals(2, committer.batchesCommitted(), "the flush marker alone writes nothing");
        assertTrue(committer.commitNanos() >= TimeUnit.MILLISECONDS.toNanos(60), "two 30 ms commits: " + committer.commitNanos());
        assertTrue(committer.appendWaitNanos() >= TimeUnit.MILLISECONDS.toNanos(60),
                "each append waited at least its own 30 ms commit: " + committer.appendWaitNanos());
        assertEquals(0, committer.lingeredNanos(), "a policy without linger never waits");
    }
}
