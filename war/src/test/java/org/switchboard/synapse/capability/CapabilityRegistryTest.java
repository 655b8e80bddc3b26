package org.switchboard.synapse.capability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.idempotency.HubReply;

class CapabilityRegistryTest {

    static final double T0 = 1_767_227_300.0;
    final CapabilityRegistry registry = new CapabilityRegistry(CardVerifier.WITHOUT_TRUST_BUNDLE);

    static JsonObject json(String singleQuoted) {
        try (JsonReader r = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return r.readObject();
        }
    }

    CapabilityVerdict advertise(String sender, String frame, double now) {
        return registry.advertise(AdvertiseRequest.from(json(frame)), sender, now);
    }

    @Test
    void persistentCardMatchesTheSpecExampleShape() {
        CapabilityVerdict v = advertise("proj/alice", "{'description':'python refactors','skills':['python'],"
                + "'task_classes':['refactor'],'persist':true}", T0);
        assertTrue(v.accepted(), v.sentence());
        HubReply r = v.mutation().response();
        assertEquals("capability_advertised", r.type());
        assertTrue(r.broadcast());
        assertEquals("Capability advertised by proj/alice", r.payload());
        assertEquals("proj/alice", r.fields().getString("agent"));
        JsonObject expected = json("{'agent':'proj/alice','description':'python refactors','skills':['python'],"
                + "'task_classes':['refactor'],'model':'','project':'proj','manifest_digest':'','contracts':[],'meta':null,"
                + "'signature':null,'verification':{'detail':'unsigned card','result':'missing_signature'},"
                + "'advertised_at':" + T0 + ",'persistent':true,'dispatchable':true}");
        assertEquals(expected, r.fields().getJsonObject("card"));
        assertEquals(1, v.mutation().events().size(), "a persistent registration is journalled");
        assertEquals(CapabilityRegistry.REGISTRATION_EVENT, v.mutation().events().get(0).kind());
    }

    @Test
    void persistentRegistrationSurvivesReplayLiveCardDoesNot() {
        CapabilityVerdict p = advertise("proj/alice", "{'skills':['python'],'persist':true,'dispatchable':false}", T0);
        CapabilityVerdict l = advertise("proj/bob", "{'skills':['go']}", T0);
        assertTrue(l.mutation().events().isEmpty(), "live cards are not journalled");
        CapabilityRegistry restarted = new CapabilityRegistry(CardVerifier.WITHOUT_TRUST_BUNDLE);
        restarted.apply(new org.switchboard.journal.JournalEvent(7, p.mutation().events().get(0).kind(),
                p.mutation().events().get(0).payload(), T0));
        assertEquals(registry.manifest(T0 + 1).get(0), restarted.manifest(T0 + 1).get(0));
        assertEquals(1, restarted.manifest(T0 + 1).size());
        assertTrue(restarted.manifest(T0 + CapabilityRegistry.PERSISTENT_TTL_SECONDS + 1).isEmpty(),
                "24 h after the original refresh the replayed registration is gone");
    }

    @Test
    void failedJournalAppendAppliesNothing() {
        assertThrows(org.switchboard.synapse.idempotency.CommitFailedException.class, () -> registry.advertise(
                AdvertiseRequest.from(json("{'persist':true}")), "proj/alice", T0, m -> { throw new IllegalStateException("disk"); }));
        assertTrue(registry.manifest(T0).isEmpty());
    }

    @Test
    void malformedFieldsAreNormalisedOrRefused() {
        CapabilityVerdict lenient = advertise("a", "{'skills':'python','task_classes':[1,'x'],'meta':[1],'description':5}", T0);
        JsonObject card = lenient.card();
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, card.getJsonArray("skills"));
        assertEquals(List.of("x"), card.getJsonArray("task_classes").getValuesAs(jakarta.json.JsonString::getString));
        assertEquals(JsonValue.NULL, card.get("meta"));
        assertEquals("", card.getString("description"));
        assertFalse(card.containsKey("persistent"), "only persistent registrations carry it");
        assertEquals("Malformed frame: 'persist' must be a boolean.", advertise("a", "{'persist':'yes'}", T0).sentence());
        assertEquals("Malformed frame: 'dispatchable' must be a boolean.", advertise("a", "{'dispatchable':1}", T0).sentence());
        assertEquals("error", advertise("a", "{'dispatchable':1}", T0).mutation().response().type());
        assertEquals(CapabilityRegistry.PERSIST_NEEDS_SEAT, advertise("loner", "{'persist':true}", T0).sentence());
        assertEquals(CapabilityRegistry.PERSIST_NEEDS_SEAT, advertise("proj/", "{'persist':true}", T0).sentence());
    }

    @Test
    void agentMustBeTheSenderOrItsSidecar() {
        assertTrue(advertise("proj/alice-rx", "{'agent':'proj/alice'}", T0).accepted());
        assertTrue(advertise("proj/alice-pane-rx", "{'agent':'proj/alice'}", T0).accepted());
        CapabilityVerdict impersonation = advertise("proj/mallory", "{'agent':'proj/alice'}", T0);
        assertFalse(impersonation.accepted());
        assertFalse(impersonation.mutation().response().broadcast());
    }

    @Test
    void contractsNormalisation() {
        JsonArray list = Contracts.normalise(json("{'c':[{'task':'refactor','inputs':{'a':1},'preconditions':['p',2]},"
                + "{'task_class':'refactor','input_schema':{'b':2}},'junk',{'no_class':1},{'task_class':'review','outputs':[]}]}").get("c"));
        assertEquals(2, list.size(), "first per class wins, junk and class-less dropped");
        assertEquals(json("{'task_class':'refactor','input_schema':{'a':1},'output_schema':{},'preconditions':['p'],'postconditions':[]}"),
                list.getJsonObject(0));
        assertEquals(json("{}"), list.getJsonObject(1).getJsonObject("output_schema"));
        assertEquals(1, Contracts.normalise(json("{'c':{'task_class':'one'}}").get("c")).size(), "one object");
        JsonArray map = Contracts.normalise(json("{'c':{'lint':{'preconditions':['clean']},'bad':3}}").get("c"));
        assertEquals(1, map.size());
        assertEquals("lint", map.getJsonObject(0).getString("task_class"), "map key is the class");
        assertEquals(0, Contracts.normalise(json("{'c':'nope'}").get("c")).size());
    }

    @Test
    void lifetimesLiveAndPersistent() {
        advertise("proj/live", "{'description':'l'}", T0);
        advertise("proj/seat", "{'description':'p','persist':true,'dispatchable':false}", T0);
        assertEquals(2, registry.manifest(T0).size());
        registry.disconnected("proj/live");
        registry.disconnected("proj/seat");
        JsonArray afterDisconnect = registry.manifest(T0 + 1);
        assertEquals(1, afterDisconnect.size(), "persistent survives disconnect");
        assertFalse(afterDisconnect.getJsonObject(0).getBoolean("dispatchable"));
        advertise("proj/live", "{'description':'l'}", T0);
        assertEquals(List.of("proj/live"), registry.expire(T0 + 300), "live card expires after 300 s without refresh");
        assertEquals(List.of(), registry.expire(T0 + 86_399));
        assertEquals(List.of("proj/seat"), registry.expire(T0 + 86_400), "persistent after 24 h");
        assertEquals(0, registry.manifest(T0 + 86_400).size());
    }

    @Test
    void manifestMergesRegistrationOntoFresherLiveCardSortedByAgent() {
        advertise("proj/b", "{'description':'old','persist':true,'dispatchable':false}", T0);
        advertise("proj/b", "{'description':'new'}", T0 + 10);
        advertise("proj/a", "{'description':'a'}", T0 + 10);
        JsonArray m = registry.manifest(T0 + 20);
        assertEquals("proj/a", m.getJsonObject(0).getString("agent"));
        JsonObject b = m.getJsonObject(1);
        assertEquals("new", b.getString("description"));
        assertTrue(b.getBoolean("persistent"));
        assertFalse(b.getBoolean("dispatchable"));
        assertFalse(m.getJsonObject(0).containsKey("persistent"));
    }

    @Test
    void signedCardsAreAdvisory() {
        CapabilityVerdict v = advertise("proj/a", "{'signature':{'key_id':'ACME:w','value':'x'}}", T0);
        assertTrue(v.accepted());
        assertEquals("unknown_key", v.card().getJsonObject("verification").getString("result"));
        assertEquals("bad_signature", advertise("proj/a", "{'signature':'x'}", T0).card().getJsonObject("verification").getString("result"));
    }
}
