package org.switchboard.synapse.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.MutationCommit;

class ResourceOffersTest {

    static final double T0 = 1_767_227_400.0;
    final List<JournalEvent> journal = new ArrayList<>();
    final MutationCommit commit = m -> m.events().forEach(d -> journal.add(new JournalEvent(journal.size() + 1, d.kind(), d.payload(), 0)));
    final ResourceOffers offers = new ResourceOffers();

    static JsonObject json(String singleQuoted) {
        try (JsonReader r = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return r.readObject();
        }
    }

    ResourceVerdict offer(String sender, String frame, double now) {
        return offers.offer(ResourceOfferRequest.from(json(frame)), sender, now, commit);
    }

    @Test
    void offerBroadcastAndJournal() {
        ResourceVerdict v = offer("proj/gpu", "{'resource_kind':' compute ','resource_name':'h200-0','capacity':0}", T0);
        assertTrue(v.accepted());
        HubReply r = v.mutation().response();
        assertEquals("resource_offered", r.type());
        assertTrue(r.broadcast());
        assertEquals("Resource offered by proj/gpu", r.payload());
        assertEquals(json("{'agent':'proj/gpu','kind':'compute','name':'h200-0','key':'proj/gpu:compute:h200-0'}"), r.fields());
        assertEquals(json("{'agent':'proj/gpu','kind':'compute','name':'h200-0','capacity':1,'meta':{},'offered_at':" + T0 + "}"),
                journal.get(0).payload());
        assertEquals(3, offer("proj/gpu", "{'kind':'compute','name':'n','capacity':3,'meta':{'x':1}}", T0).offer().capacity());
        assertEquals(1, offer("proj/gpu", "{'kind':'compute','name':'m','capacity':2.5}", T0).offer().capacity());
    }

    @Test
    void refusals() {
        assertEquals("resource offer requires kind+name", offer("a", "{'kind':'x'}", T0).sentence());
        assertEquals("resource offer requires kind+name", offer("a", "{'kind':' ','name':'y'}", T0).sentence());
        ResourceVerdict v = offer("a", "{'name':'y'}", T0);
        assertEquals("error", v.mutation().response().type());
        assertFalse(v.mutation().response().broadcast());
        assertTrue(journal.isEmpty());
    }

    @Test
    void quotaOf64LiveOffersPerAgentRefreshesAllowed() {
        for (int i = 0; i < 64; i++) {
            assertTrue(offer("a", "{'kind':'k','name':'n" + i + "'}", T0).accepted());
        }
        assertEquals("resource offer quota exceeded", offer("a", "{'kind':'k','name':'n64'}", T0).sentence());
        assertTrue(offer("a", "{'kind':'k','name':'n5'}", T0 + 1).accepted(), "re-offering refreshes");
        assertTrue(offer("b", "{'kind':'k','name':'n64'}", T0).accepted(), "per agent");
        assertTrue(offer("a", "{'kind':'k','name':'n64'}", T0 + 300).accepted(), "expired offers free the quota");
        assertEquals(2, offers.live(T0 + 300).stream().filter(o -> o.agent().equals("a")).count());
    }

    @Test
    void ttlFromLastRefreshAndReplay() {
        offer("a", "{'kind':'k','name':'x'}", T0);
        offer("a", "{'kind':'k','name':'y'}", T0);
        offer("a", "{'kind':'k','name':'x','capacity':4}", T0 + 200);
        assertEquals(List.of("a:k:y"), offers.expire(T0 + 300).stream().map(ResourceOffer::key).toList());
        assertEquals(List.of("a:k:x"), offers.live(T0 + 300).stream().map(ResourceOffer::key).toList());
        ResourceOffers rebuilt = new ResourceOffers();
        journal.forEach(rebuilt::apply);
        rebuilt.expire(T0 + 300);
        assertEquals(offers.live(T0 + 300), rebuilt.live(T0 + 300));
        assertEquals(4, rebuilt.live(T0 + 300).get(0).capacity());
        assertEquals(List.of(), rebuilt.live(T0 + 500));
    }

    @Test
    void replayReappliesTheCurrentCap() {
        for (int i = 0; i < 5; i++) {
            offer("a", "{'kind':'k','name':'n" + i + "'}", T0 + i);
        }
        ResourceOffers smaller = new ResourceOffers(3, 300);
        journal.forEach(smaller::apply);
        assertEquals(2, smaller.expire(T0 + 5).size());
        assertEquals(List.of("a:k:n2", "a:k:n3", "a:k:n4"), smaller.live(T0 + 5).stream().map(ResourceOffer::key).toList());
    }

    @Test
    void failedAppendRecordsNothing() {
        assertThrows(CommitFailedException.class, () -> offers.offer(ResourceOfferRequest.from(json("{'kind':'k','name':'n'}")), "a", T0, m -> {
            throw new java.io.IOException("down");
        }));
        assertEquals(List.of(), offers.live(T0));
    }
}
