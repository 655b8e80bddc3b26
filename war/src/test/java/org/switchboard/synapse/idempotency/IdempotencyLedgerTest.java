package org.switchboard.synapse.idempotency;

import org.switchboard.json.Jsons;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;

class IdempotencyLedgerTest {

    static final JsonObject RESPONSE = parse("{\"sender\":\"SynapseHub\",\"target\":\"all\",\"type\":\"claim_granted\","
            + "\"payload\":\"Task 't' claimed by proj/alice.\",\"timestamp\":1767226400.2,\"hub_id\":\"syn-1a2b3c4d\",\"task_id\":\"t\","
            + "\"owner\":\"proj/alice\",\"epoch\":7}");

    @Test
    void operationKeysAreNamespacedBySenderAndNormalisedVerb() {
        assertEquals("a\u0000resource\u0000k", IdempotencyLedger.operationKey("a", "offer_resource", "k"));
        assertEquals(IdempotencyLedger.operationKey("a", "resource_offer", "k"), IdempotencyLedger.operationKey("a", "resource", "k"));
        assertNotEquals(IdempotencyLedger.operationKey("a", "claim", "k"), IdempotencyLedger.operationKey("b", "claim", "k"));
        assertNotEquals(IdempotencyLedger.operationKey("a", "claim", "k"), IdempotencyLedger.operationKey("a", "release", "k"));
        assertTrue(IdempotencyLedger.covers("claim"));
        assertTrue(IdempotencyLedger.covers("offer_resource"));
        assertFalse(IdempotencyLedger.covers("chat"));
        assertFalse(IdempotencyLedger.covers("advertise"));
        assertFalse(IdempotencyLedger.covers("wait_request"));
        assertEquals("", IdempotencyLedger.idemKey(parse("{\"idem_key\":5}")));
    }

    @Test
    void sameDigestReplaysVerbatimDifferentDigestConflicts() {
        IdempotencyLedger ledger = new IdempotencyLedger();
        String key = IdempotencyLedger.operationKey("proj/alice", "claim", "k1");
        assertInstanceOf(IdempotencyLedger.Fresh.class, ledger.begin(key, "d1"));
        ledger.finish(key, new OperationRecord(key, "d1", RESPONSE, 5, 6));
        IdempotencyLedger.Replay replay = assertInstanceOf(IdempotencyLedger.Replay.class, ledger.begin(key, "d1"));
        assertEquals(RESPONSE, replay.response(), "original frame, original timestamp");
        IdempotencyLedger.Conflict conflict = assertInstanceOf(IdempotencyLedger.Conflict.class, ledger.begin(key, "d2"));
        JsonObject e = conflict.error();
        assertEquals("error", e.getString("type"));
        assertEquals("proj/alice", e.getString("target"));
        assertEquals("Idempotency key was already used for a different request.", e.getString("payload"));
        assertEquals("idempotency_conflict", e.getString("error_code"));
        assertEquals(1767226400.2, e.getJsonNumber("timestamp").doubleValue());
        assertEquals("syn-1a2b3c4d", e.getString("hub_id"));
        assertFalse(e.containsKey("task_id"), "no other stored value leaks");
    }

    @Test
    void refusedRequestsAreNotRemembered() {
        IdempotencyLedger ledger = new IdempotencyLedger();
        String key = IdempotencyLedger.operationKey("a", "claim", "k");
        ledger.begin(key, "d1");
        ledger.finish(key, null);
        assertInstanceOf(IdempotencyLedger.Fresh.class, ledger.begin(key, "d2"), "a corrected retry is evaluated afresh");
        ledger.finish(key, null);
    }

    @Test
    void lruForgetsOldKeysButTheDurableStoreRemembers() {
        IdempotencyLedger local = new IdempotencyLedger(null, 2);
        InMemoryOperationStore store = new InMemoryOperationStore();
        IdempotencyLedger durable = new IdempotencyLedger(store, 2);
        for (int i = 0; i < 3; i++) {
            String key = "a\u0000claim\u0000k" + i;
            for (IdempotencyLedger l : new IdempotencyLedger[] {local, durable}) {
                l.begin(key, "d");
                l.finish(key, new OperationRecord(key, "d", RESPONSE, 1, 2));
            }
        }
        assertInstanceOf(IdempotencyLedger.Fresh.class, local.begin("a\u0000claim\u0000k0", "d"));
        local.finish("a\u0000claim\u0000k0", null);
        assertInstanceOf(IdempotencyLedger.Replay.class, durable.begin("a\u0000claim\u0000k0", "d"));
        assertEquals(3, store.size());
    }

    @Test
    void replayFromJournalEventsIncludingLegacyRows() {
        IdempotencyLedger ledger = new IdempotencyLedger(new InMemoryOperationStore(), 1024);
        String key = "a\u0000release\u0000k";
        OperationRecord rec = new OperationRecord(key, "dd", RESPONSE, 10, 0);
        ledger.apply(new JournalEvent(11, "idempotency", rec.toPayload(), 0));
        ledger.apply(new JournalEvent(12, "idempotency", parse("{\"key\":\"legacy\",\"response\":{\"type\":\"x\"}}"), 0));
        ledger.apply(new JournalEvent(13, "claim", parse("{\"key\":\"not-this\",\"response\":{}}"), 0));
        OperationRecord found = ledger.find(key);
        assertEquals(10, found.firstEventSeq());
        assertEquals(11, found.commitSeq());
        assertInstanceOf(IdempotencyLedger.Replay.class, ledger.begin("legacy", "anything"), "legacy rows replay regardless");
        ledger.finish("legacy", null);
        assertEquals(null, ledger.find("not-this"));
    }

    @Test
    void concurrentRetriesOfOneKeyAreSerialised() throws Exception {
        IdempotencyLedger ledger = new IdempotencyLedger();
        String key = "a\u0000claim\u0000k";
        AtomicInteger fresh = new AtomicInteger();
        AtomicInteger replays = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] ts = new Thread[8];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                IdempotencyLedger.Lookup l = ledger.begin(key, "d");
                if (l instanceof IdempotencyLedger.Fresh) {
                    fresh.incrementAndGet();
                    Thread.yield();
                    ledger.finish(key, new OperationRecord(key, "d", RESPONSE, 1, 2));
                } else if (l instanceof IdempotencyLedger.Replay) {
                    replays.incrementAndGet();
                }
            });
            ts[i].start();
        }
        go.countDown();
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(1, fresh.get(), "exactly one request mutates");
        assertEquals(7, replays.get());
    }

    private static JsonObject parse(String json) {
        try (var reader = org.switchboard.json.Jsons.PROVIDER.createReader(new java.io.StringReader(json))) {
            return reader.readObject();
        }
    }
}
