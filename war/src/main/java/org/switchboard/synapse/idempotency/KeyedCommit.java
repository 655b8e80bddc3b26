package org.switchboard.synapse.idempotency;

import java.util.ArrayList;
import java.util.List;
import jakarta.json.JsonObject;
import org.switchboard.journal.JournalEvent;

/**
 * The {@link MutationCommit} of a keyed request (synapse-core §15.3): appends the mutation's
 * events followed by its operation record (the exact response frame) in one journal batch. After
 * a successful commit, send {@link #responseFrame()} verbatim and hand {@link #record()} to
 * {@link IdempotencyLedger#finish}. Refusal mutations (e.g. claim-denial evidence) are appended
 * without an operation record. One instance per request; not thread-safe.
 */
public final class KeyedCommit implements MutationCommit {

    /** Appends drafts atomically, returning their consecutive seqs (e.g. {@code journal.append(d, List.of()).get()}). */
    @FunctionalInterface
    public interface Appender {
        /** Appends in one transaction and returns the seqs; throws if nothing was committed. */
        long[] append(List<JournalEvent.Draft> drafts) throws Exception;
    }

    private final String operationKey;
    private final String requestDigest;
    private final String requester;
    private final double timestamp;
    private final String hubId;
    private final Appender appender;
    private JsonObject responseFrame;
    private OperationRecord record;

    /**
     * @param operationKey  from {@link IdempotencyLedger#operationKey}
     * @param requestDigest from {@link RequestDigest#of}
     * @param requester     bound name of the requesting socket (target of private replies)
     * @param timestamp     hub time stamped on the response
     * @param hubId         this hub's id
     * @param appender      the journal
     */
    public KeyedCommit(String operationKey, String requestDigest, String requester, double timestamp, String hubId,
                       Appender appender) {
        this.operationKey = operationKey;
        this.requestDigest = requestDigest;
        this.requester = requester;
        this.timestamp = timestamp;
        this.hubId = hubId;
        this.appender = appender;
    }

    @Override
    public void commit(Mutation mutation) throws Exception {
        List<JournalEvent.Draft> drafts = new ArrayList<>(mutation.events());
        JsonObject frame = mutation.response() == null ? null : mutation.response().toFrame(requester, timestamp, hubId);
        boolean recordIt = mutation.succeeded() && frame != null;
        if (recordIt) {
            drafts.add(new JournalEvent.Draft(OperationRecord.EVENT_KIND,
                    OperationRecord.payloadAfterEvents(operationKey, requestDigest, frame, mutation.events().size())));
        }
        if (drafts.isEmpty()) {
            return;
        }
        long[] seqs = appender.append(drafts);
        responseFrame = frame;
        if (recordIt) {
            long commitSeq = seqs[seqs.length - 1];
            long first = mutation.events().isEmpty() ? 0 : seqs[0];
            record = new OperationRecord(operationKey, requestDigest, frame, first, commitSeq);
        }
    }

    /** The response frame exactly as stored (null before a commit). */
    public JsonObject responseFrame() {
        return responseFrame;
    }

    /** The committed operation record, or null (refusal, or nothing committed). */
    public OperationRecord record() {
        return record;
    }
}
