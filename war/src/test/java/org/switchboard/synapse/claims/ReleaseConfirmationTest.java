package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.InMemoryOperationStore;
import org.switchboard.synapse.idempotency.KeyedCommit;

/** A keyed release, committed the way the wiring will do it, is confirmed only to its owner with matching digest. */
class ReleaseConfirmationTest {

    final List<JournalEvent> journal = new ArrayList<>();
    final IdempotencyLedger ledger = new IdempotencyLedger(new InMemoryOperationStore(), 1024);
    String digest;

    JournalEvent at(long seq) {
        return seq >= 1 && seq <= journal.size() ? journal.get((int) seq - 1) : null;
    }

    @BeforeEach
    void keyedRelease() {
        ClaimBook book = new ClaimBook();
        book.claim(ClaimRequest.from(Frames.json("{'task_id':'t'}")), "proj/alice", "P", 1000, m -> { });
        ReleaseRequest req = ReleaseRequest.from(Frames.json("{'task_id':'t','idem_key':'rel-1','evidence':['ok']}"), "proj/alice");
        digest = req.requestDigest();
        String key = IdempotencyLedger.operationKey("proj/alice", "release", "rel-1");
        ledger.begin(key, digest);
        KeyedCommit commit = new KeyedCommit(key, digest, "proj/alice", 1001.5, "syn-1", drafts -> {
            long[] seqs = new long[drafts.size()];
            for (int i = 0; i < drafts.size(); i++) {
                journal.add(new JournalEvent(journal.size() + 1, drafts.get(i).kind(), drafts.get(i).payload(), 0));
                seqs[i] = journal.size();
            }
            return seqs;
        });
        book.release(req, "proj/alice", 1001, commit);
        ledger.finish(key, commit.record());
    }

    JsonObject confirm(String sender, String query) {
        return ReleaseConfirmation.evaluate(Frames.json("{'q':" + query + "}").get("q"), sender, ledger, this::at);
    }

    @Test
    void confirmsTheOwnersKeyedRelease() {
        JsonObject c = confirm("proj/alice", "{'task_id':'t','operation_id':'rel-1','request_digest':'" + digest + "'}");
        assertEquals("confirmed", c.getString("status"));
        assertEquals("proj/alice", c.getString("owner"));
        assertEquals(1, c.getInt("first_event_seq"));
        assertEquals(journal.size(), c.getInt("commit_seq"));
        assertEquals(true, c.getJsonObject("receipt").getBoolean("released"));
    }

    @Test
    void everythingElseIsUnknownAndEchoesOnlyTheQuery() {
        String good = "{'task_id':'t','operation_id':'rel-1','request_digest':'" + digest + "'}";
        JsonObject foreign = confirm("proj/bob", good);
        assertEquals("unknown", foreign.getString("status"));
        assertFalse(foreign.containsKey("receipt"));
        assertEquals(List.of("status", "task_id", "operation_id", "request_digest"), List.copyOf(foreign.keySet()));
        assertEquals("unknown", confirm("proj/alice", good.replace(digest, "0".repeat(64))).getString("status"));
        assertEquals("unknown", confirm("proj/alice", good.replace(digest, digest.toUpperCase())).getString("status"));
        assertEquals("unknown", confirm("proj/alice", good.replace("'t'", "'u'")).getString("status"));
        assertEquals("unknown", confirm("proj/alice", good.replace("rel-1", "x".repeat(129))).getString("status"));
        assertEquals("unknown", confirm("proj/alice", "'not an object'").getString("status"));
        journal.set(0, new JournalEvent(1, "corrupt_event", Frames.json("{}"), 0));
        assertEquals("unknown", confirm("proj/alice", good).getString("status"), "damaged storage is not confirmation");
    }
}
