package org.switchboard.synapse.idempotency;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;

/**
 * The {@link MutationCommit} the wiring hands to a rule: appends the mutation's events and, for a
 * successful keyed request, its operation record (the exact response frame) in ONE journal batch,
 * so the events and the idempotency result become durable together (§15.3).
 *
 * <p>Two modes. <em>Awaiting</em> blocks until the batch committed (or throws), so the rule applies
 * its change only after the journal has it. <em>Ordered</em> only enqueues the batch, which the
 * group committer numbers in enqueue order; the rule calls it under its own lock, so journal order
 * equals apply order, and the wiring sends nothing until {@link #committed()} completes. The
 * ordered mode is for claims: it lets one lock holder hand its append to the group commit and let
 * the next decision run, instead of holding the book for a whole disk commit.
 */
public final class JournalCommit implements MutationCommit {

    private static final CompletableFuture<long[]> NOTHING = CompletableFuture.completedFuture(new long[0]);
    private static final long AWAIT_SECONDS = 30;

    private final Journal journal;
    private final String operationKey;
    private final String requestDigest;
    private final String requester;
    private final double timestamp;
    private final String hubId;
    private final boolean await;
    private CompletableFuture<long[]> committed = NOTHING;
    private JsonObject responseFrame;
    private boolean recorded;
    private int eventCount;

    /**
     * @param journal       the journal, or null on a hub without one (nothing is appended)
     * @param operationKey  the keyed request's operation key, or null when the request has no {@code idem_key}
     * @param requestDigest the keyed request's digest (ignored when not keyed)
     * @param requester     bound name of the requester (target of private replies)
     * @param timestamp     hub time stamped on the replies
     * @param hubId         this hub's id
     * @param await         true = block until committed; false = enqueue in order, see {@link #committed()}
     */
    public JournalCommit(Journal journal, String operationKey, String requestDigest, String requester,
                         double timestamp, String hubId, boolean await) {
        this.journal = journal;
        this.operationKey = operationKey;
        this.requestDigest = requestDigest;
        this.requester = requester;
        this.timestamp = timestamp;
        this.hubId = hubId;
        this.await = await;
    }

    @Override
    public void commit(Mutation mutation) throws Exception {
        List<JournalEvent.Draft> drafts = new ArrayList<>(mutation.events().size() + 1);
        drafts.addAll(mutation.events());
        eventCount = mutation.events().size();
        if (operationKey != null && mutation.succeeded() && mutation.response() != null) {
            responseFrame = mutation.response().toFrame(requester, timestamp, hubId);
            drafts.add(new JournalEvent.Draft(OperationRecord.EVENT_KIND,
                    OperationRecord.payloadAfterEvents(operationKey, requestDigest, responseFrame, eventCount)));
            recorded = true;
        }
        if (drafts.isEmpty() || journal == null) {
            committed = NOTHING;
            return;
        }
        CompletableFuture<long[]> future = journal.append(drafts, List.of());
        committed = future;
        if (await) {
            try {
                future.get(AWAIT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // the rule refuses and applies nothing; the caller must not report a second failure
                committed = NOTHING;
                recorded = false;
                throw new CommitFailedException(e instanceof ExecutionException ? e.getCause() : e);
            }
        }
    }

    /** Completes with the seqs once the batch committed (at once when nothing was appended). */
    public CompletableFuture<long[]> committed() {
        return committed;
    }

    /** The stored response frame of a keyed success, or null. */
    public JsonObject responseFrame() {
        return responseFrame;
    }

    /** The operation record to remember once {@code seqs} committed, or null when nothing is recorded. */
    public OperationRecord record(long[] seqs) {
        if (!recorded) {
            return null;
        }
        long commitSeq = seqs.length == 0 ? 0 : seqs[seqs.length - 1];
        long first = eventCount == 0 || seqs.length == 0 ? 0 : seqs[0];
        return new OperationRecord(operationKey, requestDigest, responseFrame, first, commitSeq);
    }
}
