package org.switchboard.redsyn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The grouped updates' writer: queued updates share a commit, each future completes only after the commit
 * that ran its update (with its own row count), and a failed batch is retried one update at a time.
 */
class GroupedUpdatesTest {

    private static GroupedUpdates.Update update(String sql) {
        return new GroupedUpdates.Update(sql, List.of());
    }

    @Test
    void updatesQueuedDuringACommitShareTheNextAndAreAnsweredOnlyAfterIt() throws Exception {
        CountDownLatch firstInSink = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch secondInSink = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        List<List<String>> commits = Collections.synchronizedList(new ArrayList<>());
        GroupedUpdates writer = new GroupedUpdates(updates -> {
            commits.add(updates.stream().map(GroupedUpdates.Update::sql).toList());
            if (commits.size() == 1) {
                firstInSink.countDown();
                releaseFirst.await();
            } else {
                secondInSink.countDown();
                releaseSecond.await();
            }
            return updates.stream().mapToInt(u -> u.sql().startsWith("hit") ? 1 : 0).toArray();
        }, 16, 100, 0);
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        try {
            CompletableFuture<Integer> first = writer.submit(update("hit-0"));
            firstInSink.await();
            List<CompletableFuture<Integer>> more = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                more.add(writer.submit(update((i % 2 == 0 ? "hit-" : "miss-") + i)));
            }
            assertFalse(first.isDone(), "answered before its commit returned");
            releaseFirst.countDown();
            assertEquals(1, first.join());
            secondInSink.await();
            assertTrue(more.stream().noneMatch(CompletableFuture::isDone), "answered before their commit returned");
            releaseSecond.countDown();
            List<Integer> counts = more.stream().map(CompletableFuture::join).toList();
            assertEquals(List.of(0, 1, 0, 1, 0), counts, "each caller gets its own update's row count");
            assertEquals(List.of(List.of("hit-0"), List.of("miss-1", "hit-2", "miss-3", "hit-4", "miss-5")), commits,
                    "the five queued during the first commit share the second, in queue order");
            assertEquals(2, writer.batches());
            assertEquals(6, writer.updates());
        } finally {
            releaseFirst.countDown();
            releaseSecond.countDown();
            writer.close();
        }
    }

    @Test
    void aLingeringBatchCommitsAsSoonAsTheQueueFillsIt() throws Exception {
        List<List<String>> commits = Collections.synchronizedList(new ArrayList<>());
        // a linger far longer than the test may take: only a full batch ends it
        GroupedUpdates writer = new GroupedUpdates(updates -> {
            commits.add(updates.stream().map(GroupedUpdates.Update::sql).toList());
            return updates.stream().mapToInt(u -> 1).toArray();
        }, 3, 100, TimeUnit.SECONDS.toNanos(120));
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        try {
            // the first update ever came after a long gap: it commits without waiting
            assertEquals(1, writer.submit(update("u0")).get(30, TimeUnit.SECONDS));
            List<CompletableFuture<Integer>> more = new ArrayList<>();
            more.add(writer.submit(update("u1")));
            Thread.sleep(200); // the writer has taken u1 and lingers: u2 and u3 must wake it
            assertFalse(more.get(0).isDone(), "u1 waits for more");
            more.add(writer.submit(update("u2")));
            more.add(writer.submit(update("u3")));
            for (CompletableFuture<Integer> future : more) {
                assertEquals(1, future.get(30, TimeUnit.SECONDS), "a full batch stops lingering");
            }
            assertEquals(List.of(List.of("u0"), List.of("u1", "u2", "u3")), commits);
        } finally {
            writer.close();
        }
    }

    @Test
    void aFailedBatchIsRetriedOneUpdateAtATimeSoOnlyTheBadOneFails() throws Exception {
        CountDownLatch firstInSink = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> batchSizes = Collections.synchronizedList(new ArrayList<>());
        GroupedUpdates writer = new GroupedUpdates(updates -> {
            batchSizes.add(updates.size());
            if (batchSizes.size() == 1) {
                firstInSink.countDown();
                release.await();
            }
            if (updates.stream().anyMatch(u -> u.sql().equals("bad"))) {
                throw new SQLException("bad statement");
            }
            return updates.stream().mapToInt(u -> 1).toArray();
        }, 16, 100, 0);
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        try {
            CompletableFuture<Integer> first = writer.submit(update("good-0"));
            firstInSink.await();
            CompletableFuture<Integer> a = writer.submit(update("good-1"));
            CompletableFuture<Integer> bad = writer.submit(update("bad"));
            CompletableFuture<Integer> b = writer.submit(update("good-2"));
            release.countDown();
            assertEquals(1, first.join());
            assertEquals(1, a.join());
            assertEquals(1, b.join());
            CompletionException failed = assertThrows(CompletionException.class, bad::join);
            assertInstanceOf(SQLException.class, failed.getCause());
            assertEquals(List.of(1, 3, 1, 1, 1), batchSizes, "the batch of three, then each alone");
        } finally {
            release.countDown();
            writer.close();
        }
    }

    @Test
    void aUnitCommitsWhollyOrNotAtAllAndItsNeighboursKeepTheirCommit() throws Exception {
        CountDownLatch firstInSink = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<List<String>> committed = Collections.synchronizedList(new ArrayList<>());
        GroupedUpdates writer = new GroupedUpdates(updates -> {
            if (committed.isEmpty() && firstInSink.getCount() > 0) {
                firstInSink.countDown();
                release.await();
            }
            if (updates.stream().anyMatch(u -> u.sql().equals("bad"))) {
                throw new SQLException("bad statement");
            }
            committed.add(updates.stream().map(GroupedUpdates.Update::sql).toList());
            return updates.stream().mapToInt(u -> u.sql().startsWith("two") ? 2 : 1).toArray();
        }, 16, 100, 0);
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        try {
            CompletableFuture<Integer> first = writer.submit(update("one-0"));
            firstInSink.await();
            CompletableFuture<int[]> good = writer.submitUnit(List.of(update("one-a"), update("two-b"), update("one-c")));
            CompletableFuture<int[]> failing = writer.submitUnit(List.of(update("one-d"), update("bad")));
            CompletableFuture<Integer> after = writer.submit(update("two-e"));
            release.countDown();
            assertEquals(1, first.join());
            assertArrayEquals(new int[] {1, 2, 1}, good.join(), "each statement's own count, in order");
            assertEquals(2, after.join());
            CompletionException failed = assertThrows(CompletionException.class, failing::join);
            assertInstanceOf(SQLException.class, failed.getCause());
            assertFalse(committed.stream().anyMatch(batch -> batch.contains("one-d")), "nothing of the failed unit committed");
            assertTrue(committed.contains(List.of("one-a", "two-b", "one-c")), "the good unit committed alone on the retry, whole");
            assertTrue(committed.contains(List.of("two-e")));
            assertEquals(5, writer.updates(), "updates counted as committed: one-0, the good unit's three, two-e");
        } finally {
            release.countDown();
            writer.close();
        }
    }

    @Test
    void anEmptyUnitIsRefusedAtOnce() {
        GroupedUpdates writer = new GroupedUpdates(updates -> new int[updates.size()], 4, 8, 0);
        assertThrows(IllegalArgumentException.class, () -> writer.submitUnit(List.of()));
    }

    @Test
    void aStoppedWriterRefusesSoTheCallerRunsItsOwnTransaction() {
        GroupedUpdates writer = new GroupedUpdates(updates -> new int[updates.size()], 4, 8, 0);
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        writer.close();
        CompletionException refused = assertThrows(CompletionException.class, () -> writer.submit(update("x")).join());
        assertInstanceOf(GroupedUpdates.UnavailableException.class, refused.getCause());
    }

    @Test
    void aSinkGivingTheWrongNumberOfCountsFailsItsUpdatesInsteadOfAnsweringThemWrongly() {
        GroupedUpdates writer = new GroupedUpdates(updates -> new int[0], 4, 8, 0);
        writer.start(Executors.defaultThreadFactory(), "test-writer");
        try {
            assertThrows(CompletionException.class, () -> writer.submit(update("x")).join());
        } finally {
            writer.close();
        }
    }
}
