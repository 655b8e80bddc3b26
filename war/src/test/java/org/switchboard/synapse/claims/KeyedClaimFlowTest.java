package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.InMemoryOperationStore;
import org.switchboard.synapse.idempotency.KeyedCommit;
import org.switchboard.synapse.idempotency.RequestDigest;

/** The keyed-request flow a handler will run: ledger lookup, rule with a KeyedCommit, finish; then retries. */
class KeyedClaimFlowTest {

    final List<JournalEvent> journal = new ArrayList<>();
    final ClaimBook book = new ClaimBook();
    final IdempotencyLedger ledger = new IdempotencyLedger(new InMemoryOperationStore(), 1024);

    long[] append(List<JournalEvent.Draft> drafts) {
        long[] seqs = new long[drafts.size()];
        for (int i = 0; i < drafts.size(); i++) {
            journal.add(new JournalEvent(journal.size() + 1, drafts.get(i).kind(), drafts.get(i).payload(), 0));
            seqs[i] = journal.size();
        }
        return seqs;
    }

    /** What a claim handler does with a keyed frame; returns the frame it would send privately or broadcast. */
    JsonObject handle(String sender, String frameText, double now) {
        JsonObject frame = Frames.json(frameText);
        String key = IdempotencyLedger.operationKey(sender, "claim", IdempotencyLedger.idemKey(frame));
        String digest = RequestDigest.of(frame, sender, "claim");
        IdempotencyLedger.Lookup lookup = ledger.begin(key, digest);
        if (lookup instanceof IdempotencyLedger.Replay r) {
            return r.response();
        }
        if (lookup instanceof IdempotencyLedger.Conflict c) {
            return c.error();
        }
        KeyedCommit commit = new KeyedCommit(key, digest, sender, now, "syn-1", this::append);
        try {
            ClaimDecision d = book.claim(ClaimRequest.from(frame), sender, "P-" + sender, now, commit);
            return d.granted() ? commit.responseFrame() : d.mutation().response().toFrame(sender, now, "syn-1");
        } finally {
            ledger.finish(key, commit.record());
        }
    }

    @Test
    void retriesReplayTheOriginalFrameAndConflictsAreRefused() {
        JsonObject first = handle("proj/alice", "{'type':'claim','task_id':'t','paths':['a'],'idem_key':'k1','timestamp':1}", 1000);
        assertEquals("claim_granted", first.getString("type"));
        assertEquals(List.of("claim", "idempotency"), journal.stream().map(JournalEvent::kind).toList(), "one batch");
        JsonObject retry = handle("proj/alice", "{'type':'claim','task_id':'t','paths':['a'],'idem_key':'k1','timestamp':2}", 2000);
        assertEquals(first, retry, "verbatim, original timestamp included");
        assertEquals(2, journal.size(), "no new events");
        assertEquals(1, book.lastEpoch(), "no renewal happened");
        JsonObject conflict = handle("proj/alice", "{'type':'claim','task_id':'other','idem_key':'k1'}", 3000);
        assertEquals("idempotency_conflict", conflict.getString("error_code"));
        assertEquals(1000.0, conflict.getJsonNumber("timestamp").doubleValue());
        JsonObject otherAgent = handle("proj/bob", "{'type':'claim','task_id':'u','paths':['b'],'idem_key':'k1'}", 3000);
        assertEquals("claim_granted", otherAgent.getString("type"), "keys of different agents never collide");
    }

    @Test
    void deniedKeyedClaimsAreNotRememberedAndReplayAcrossRestart() {
        handle("proj/alice", "{'type':'claim','task_id':'t','paths':['src']}", 1000);
        JsonObject denied = handle("proj/bob", "{'type':'claim','task_id':'u','paths':['src/x'],'idem_key':'b1'}", 1000);
        assertEquals("claim_denied", denied.getString("type"));
        assertNull(ledger.find(IdempotencyLedger.operationKey("proj/bob", "claim", "b1")));
        JsonObject corrected = handle("proj/bob", "{'type':'claim','task_id':'u','paths':['docs'],'idem_key':'b1'}", 1001);
        assertEquals("claim_granted", corrected.getString("type"), "a corrected retry with the same key is evaluated afresh");

        IdempotencyLedger afterRestart = new IdempotencyLedger(new InMemoryOperationStore(), 1024);
        journal.forEach(afterRestart::apply);
        IdempotencyLedger.Replay replay = assertInstanceOf(IdempotencyLedger.Replay.class,
                afterRestart.begin(IdempotencyLedger.operationKey("proj/bob", "claim", "b1"),
                        RequestDigest.of(Frames.json("{'type':'claim','task_id':'u','paths':['docs'],'idem_key':'b1'}"),
                                "proj/bob", "claim")));
        assertEquals(corrected, replay.response());
        var rec = afterRestart.find(IdempotencyLedger.operationKey("proj/bob", "claim", "b1"));
        assertTrue(rec.commitSeq() > rec.firstEventSeq() && rec.firstEventSeq() > 0);
        assertEquals("claim", journal.get((int) rec.firstEventSeq() - 1).kind(), "first event seq derived from the batch");
    }
}
