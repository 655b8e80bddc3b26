package org.switchboard.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleSupplier;

/**
 * Group commit for the journal ({@link GroupWriter}): appenders on any thread enqueue without locking; one
 * writer thread drains the queue, assigns consecutive seqs, and hands up to {@link GroupCommitPolicy#maxRowsPerBatch()}
 * rows to the {@link Sink} as one transaction. Futures complete only after that transaction
 * commits, in seq order, on the completion executor (so callers' continuations never slow the
 * writer). A failed batch applies nothing; its appends are retried one transaction each so that
 * one bad append cannot sink its neighbours, and those that fail again fail their futures.
 * Seqs handed to a failed transaction are never reused.
 */
public final class GroupCommitter extends GroupWriter<GroupCommitter.Pending> {

    /** Durable storage for one batch: writes every row of it in one transaction, or throws and writes none. */
    @FunctionalInterface
    public interface Sink {
        /** Writes the batch atomically; returns only after commit. */
        void commit(SequencedBatch batch) throws Exception;
    }

    /** Thrown (through the future) when the writer is not accepting appends. */
    public static final class JournalUnavailableException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        /** Creates the exception with a reason. */
        public JournalUnavailableException(String message) {
            super(message);
        }
    }

    private final GroupCommitPolicy policy;
    private final Sink sink;
    private final Executor completions;
    private final DoubleSupplier clock;
    private volatile boolean writerLingerPrompt;
    private volatile long committedSeq;
    private volatile long batchesCommitted;
    private volatile long appendsCommitted;
    private volatile long appendWaitNanos;
    private volatile long commitNanos;
    private volatile long lingeredNanos;
    private final DurationHistogram commitDurations = new DurationHistogram();
    private long nextSeq;
    private long lastCommitNanos;
    private final AppendRate appendRate;
    private long nextOutboxOrder;

    /**
     * @param lastSeq          highest seq already stored (the next event gets {@code lastSeq + 1})
     * @param lastOutboxOrder  highest outbox creation order already stored
     * @param clock            wall clock in epoch seconds, stamped on each batch
     */
    public GroupCommitter(GroupCommitPolicy policy, Sink sink, Executor completions, DoubleSupplier clock,
                          long lastSeq, long lastOutboxOrder) {
        this(policy, sink, completions, clock, lastSeq, lastOutboxOrder, new AppendRate());
    }

    /** As above, with the writer's append-rate estimate given (tests start it where they need it). */
    GroupCommitter(GroupCommitPolicy policy, Sink sink, Executor completions, DoubleSupplier clock,
                   long lastSeq, long lastOutboxOrder, AppendRate appendRate) {
        super("journal", policy.maxRowsPerBatch(), policy.maxQueuedRows(), policy.idleParkNanos());
        this.appendRate = Objects.requireNonNull(appendRate);
        this.policy = Objects.requireNonNull(policy);
        this.sink = Objects.requireNonNull(sink);
        this.completions = Objects.requireNonNull(completions);
        this.clock = Objects.requireNonNull(clock);
        this.committedSeq = lastSeq;
        this.nextSeq = lastSeq + 1;
        this.nextOutboxOrder = lastOutboxOrder + 1;
    }

    /** Starts the writer on a thread from {@code threads} (a container-managed factory in the server). */
    public void start(ThreadFactory threads) {
        start(threads, "journal-writer");
    }

    /**
     * Queues events and outbox rows for one atomic append, together with the {@link SideRows} attached
     * on this thread (they leave the thread with this call, whatever its outcome). The payloads are
     * encoded here, on the caller's thread; bad input fails the returned future at once without
     * touching the queue.
     */
    public CompletableFuture<long[]> submit(List<JournalEvent.Draft> events, List<OutboxRow> outbox) {
        return submit(events, outbox, SideRows.take());
    }

    /**
     * Queues events, outbox rows and side rows for one atomic append (side rows alone are allowed:
     * they then commit with whatever else the writer's next transaction holds).
     */
    public CompletableFuture<long[]> submit(List<JournalEvent.Draft> events, List<OutboxRow> outbox,
                                            List<SideRow> sideRows) {
        return submit(events, outbox, sideRows, false);
    }

    /**
     * As {@link #submit(List, List, List)}; a {@code prompt} append is one a client waits on before its
     * next step, so its batch lingers at most {@link GroupCommitPolicy#floorFor the prompt floor}.
     */
    public CompletableFuture<long[]> submit(List<JournalEvent.Draft> events, List<OutboxRow> outbox,
                                            List<SideRow> sideRows, boolean prompt) {
        Pending pending;
        try {
            pending = Pending.of(events == null ? List.of() : events, outbox == null ? List.of() : outbox,
                    sideRows == null ? List.of() : sideRows, prompt);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (pending.size() == 0) {
            return CompletableFuture.completedFuture(new long[0]);
        }
        enqueue(pending);
        return pending.future;
    }

    /**
     * Completes once every append queued before this call has committed (or failed). Nothing is
     * written for it: it only takes its place in the queue, so a reader that waits for it sees them.
     */
    public CompletableFuture<Void> flushed() {
        Pending marker = Pending.of(List.of(), List.of(), List.of(), false);
        enqueue(marker);
        return marker.future.thenApply(seqs -> null);
    }

    /** Highest seq whose transaction has committed. */
    public long committedSeq() {
        return committedSeq;
    }

    /** Transactions committed so far (for metrics and the benchmark). */
    public long batchesCommitted() {
        return batchesCommitted;
    }

    /** Appends committed so far (flush markers included). */
    public long appendsCommitted() {
        return appendsCommitted;
    }

    /** Sum over committed appends of the time from enqueue to the end of their commit, in nanoseconds. */
    public long appendWaitNanos() {
        return appendWaitNanos;
    }

    /** Time the writer spent inside the sink's commits so far, in nanoseconds. */
    public long commitNanos() {
        return commitNanos;
    }

    /** How long each committed batch's commit took: the tail that {@link #commitNanos()} hides. */
    public DurationHistogram commitDurations() {
        return commitDurations;
    }

    /** Time the writer spent lingering for more appends so far, in nanoseconds. */
    public long lingeredNanos() {
        return lingeredNanos;
    }

    @Override
    protected RuntimeException unavailable(String message) {
        return new JournalUnavailableException(message);
    }

    /** Lets concurrent appenders fill the transaction: its fixed cost dominates small batches. */
    @Override
    protected int linger(List<Pending> batch, int rows) {
        long started = System.nanoTime();
        appendRate.taken(rows, started);
        boolean prompt = anyPrompt(batch, 0);
        long linger = lingerFor(rows, prompt);
        if (linger <= 0) {
            return rows;
        }
        long deadline = started + linger;
        writerLingerPrompt = prompt;
        lingering(true);
        long now;
        while (true) {
            // Take what came (an append enqueued before the flags were set woke nobody), then wait.
            int before = rows;
            int sizeBefore = batch.size();
            rows = takeMore(batch, rows);
            now = System.nanoTime();
            appendRate.taken(rows - before, now);
            if (!prompt && anyPrompt(batch, sizeBefore)) {
                // A prompt append joined: the batch's wait shrinks to its floor, from the start.
                prompt = true;
                writerLingerPrompt = true;
                deadline = Math.min(deadline, started + lingerFor(rows, true));
            }
            if (!running() || now >= deadline || queuedSize() >= policy.lingerRows() || !policy.shouldLinger(rows)) {
                break;
            }
            LockSupport.parkNanos(this, deadline - now);
        }
        // the loop ends right after taking what was queued
        lingeredNanos += now - started;
        lingering(false);
        return rows;
    }

    /** A lingering writer has what it waited for, or a prompt append that may shorten its wait. */
    @Override
    protected boolean endsLinger(Pending pending, int queuedRows) {
        return queuedRows >= policy.lingerRows() || (pending.prompt && !writerLingerPrompt);
    }

    /** How long a batch of {@code rows} waits for more appends (0 = commit now). */
    private long lingerFor(int rows, boolean prompt) {
        if (!policy.shouldLinger(rows) || !running()) {
            return 0;
        }
        return policy.lingerAfter(lastCommitNanos, appendRate.expectedWithin(policy.floorFor(prompt)), prompt);
    }

    /** Whether any append of the batch from index {@code from} on is prompt. */
    private static boolean anyPrompt(List<Pending> batch, int from) {
        for (int i = Math.max(0, from); i < batch.size(); i++) {
            if (batch.get(i).prompt) {
                return true;
            }
        }
        return false;
    }

    /**
     * Assigns seqs, commits, and on success schedules completion; returns the failure or null. A retried
     * append gets fresh seqs, as a failed transaction's are burnt.
     */
    @Override
    protected Throwable commit(List<Pending> batch) {
        double now = clock.getAsDouble();
        List<SequencedBatch.Event> events = new ArrayList<>();
        List<SequencedBatch.Outbox> outbox = new ArrayList<>();
        List<SideRow> sideRows = new ArrayList<>();
        long[][] seqs = new long[batch.size()][];
        for (int i = 0; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            seqs[i] = new long[pending.kinds.size()];
            for (int e = 0; e < pending.kinds.size(); e++) {
                long seq = nextSeq++;
                seqs[i][e] = seq;
                events.add(new SequencedBatch.Event(seq, pending.kinds.get(e), pending.payloads.get(e), now));
            }
            for (int o = 0; o < pending.outbox.size(); o++) {
                OutboxRow row = pending.outbox.get(o);
                outbox.add(new SequencedBatch.Outbox(nextOutboxOrder++, row.notificationId(), row.messageSeq(),
                        row.phase(), row.sender(), pending.frames.get(o), row.attempts(),
                        row.delivered() ? now : null));
            }
            for (SideRow row : pending.sideRows) {
                sideRows.add(seqs[i].length == 0 ? row : row.sequenced(seqs[i][0]));
            }
        }
        // a batch of flush markers alone writes nothing
        if (!events.isEmpty() || !outbox.isEmpty() || !sideRows.isEmpty()) {
            long started = System.nanoTime();
            try {
                sink.commit(new SequencedBatch(events, outbox, sideRows));
            } catch (Exception | LinkageError | AssertionError e) {
                return e;
            } finally {
                lastCommitNanos = System.nanoTime() - started;
            }
            if (!events.isEmpty()) {
                committedSeq = events.get(events.size() - 1).seq();
            }
            batchesCommitted++;
            commitNanos += lastCommitNanos;
            commitDurations.record(lastCommitNanos);
        }
        long committedAt = System.nanoTime();
        long waited = 0;
        for (Pending pending : batch) {
            waited += committedAt - pending.enqueuedNanos();
        }
        appendWaitNanos += waited;
        appendsCommitted += batch.size();
        List<Pending> done = List.copyOf(batch);
        Runnable complete = () -> CompletionBatch.run(() -> {
            for (int i = 0; i < done.size(); i++) {
                done.get(i).future.complete(seqs[i]);
            }
        });
        try {
            completions.execute(complete);
        } catch (RuntimeException rejected) {
            complete.run();
        }
        return null;
    }

    /** Fails them on the completion executor, as successes complete there. */
    @Override
    protected void failed(List<Pending> entries, Throwable failure) {
        Runnable complete = () -> entries.forEach(p -> p.future.completeExceptionally(failure));
        try {
            completions.execute(complete);
        } catch (RuntimeException rejected) {
            complete.run();
        }
    }

    /** One caller's append, encoded and waiting for the writer. */
    static final class Pending extends GroupWriter.Entry {
        final List<String> kinds;
        final List<String> payloads;
        final List<OutboxRow> outbox;
        final List<String> frames;
        final List<SideRow> sideRows;
        final CompletableFuture<long[]> future = new CompletableFuture<>();
        final boolean prompt;

        private Pending(List<String> kinds, List<String> payloads, List<OutboxRow> outbox, List<String> frames,
                        List<SideRow> sideRows, boolean prompt) {
            this.prompt = prompt;
            this.kinds = kinds;
            this.payloads = payloads;
            this.outbox = outbox;
            this.frames = frames;
            this.sideRows = sideRows;
        }

        static Pending of(List<JournalEvent.Draft> events, List<OutboxRow> outbox, List<SideRow> sideRows, boolean prompt) {
            List<String> kinds = new ArrayList<>(events.size());
            List<String> payloads = new ArrayList<>(events.size());
            for (JournalEvent.Draft draft : events) {
                if (draft == null) {
                    throw new IllegalArgumentException("journal event must not be null");
                }
                kinds.add(bounded("event kind", draft.kind(), SequencedBatch.MAX_KIND_CHARS));
                String json = draft.json() != null ? draft.json() : PayloadCodec.encode(draft.payload());
                payloads.add(bounded("event payload", json, SequencedBatch.MAX_JSON_CHARS));
            }
            List<String> frames = new ArrayList<>(outbox.size());
            for (OutboxRow row : outbox) {
                if (row == null) {
                    throw new IllegalArgumentException("outbox row must not be null");
                }
                bounded("outbox notification id", row.notificationId(), SequencedBatch.MAX_NOTIFICATION_ID_CHARS);
                bounded("outbox phase", row.phase(), SequencedBatch.MAX_KIND_CHARS);
                bounded("outbox sender", row.sender(), SequencedBatch.MAX_SENDER_CHARS);
                frames.add(bounded("outbox frame", PayloadCodec.encode(row.frame()), SequencedBatch.MAX_JSON_CHARS));
            }
            for (SideRow row : sideRows) {
                if (row == null || row.statement() == null || row.statement().isBlank()) {
                    throw new IllegalArgumentException("side row must name its statement");
                }
            }
            return new Pending(kinds, payloads, List.copyOf(outbox), frames, List.copyOf(sideRows), prompt);
        }

        /** Rejects here, on the caller's thread, what the table would reject inside a shared batch. */
        private static String bounded(String what, String value, int maxChars) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(what + " must be a non-blank string");
            }
            if (value.length() > maxChars) {
                throw new IllegalArgumentException(what + " longer than " + maxChars + " characters");
            }
            return value;
        }

        @Override
        protected int size() {
            return kinds.size() + outbox.size() + sideRows.size();
        }

        @Override
        protected void fail(Throwable failure) {
            future.completeExceptionally(failure);
        }
    }
}
