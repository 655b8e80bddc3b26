package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

class RegistrationTest {

    @Test
    void openHubWelcomesOnConnectAndAnnouncesTheBind() {
        TestHub test = new TestHub();
        TestHub.Client bob = test.register("proj/bob");
        TestHub.Client alice = test.connect("proj/alice");
        JsonObject welcome = alice.peer().lastOfType("welcome");
        assertEquals("self", welcome.getString("target"));
        assertEquals(6, welcome.getInt("protocol_version"));
        assertEquals("syn-0badc0de", welcome.getString("hub_id"), "hub id comes from the journal");
        assertEquals(2, welcome.getInt("connected_clients"));
        assertEquals(Json.createArrayBuilder().add("proj/bob").build(), welcome.getJsonArray("online_agents"));
        alice.send(TestHub.frame("heartbeat", "System", "online"));
        JsonObject presence = bob.peer().lastOfType("presence_update");
        assertEquals("joined", presence.getString("event"));
        assertEquals("proj/alice", presence.getString("agent"));
        assertEquals(Json.createArrayBuilder().add("proj/alice").add("proj/bob").build(),
                presence.getJsonArray("online_agents"));
        assertEquals("joined", alice.peer().lastOfType("presence_update").getString("event"), "the new socket too");
        alice.disconnect();
        JsonObject left = bob.peer().lastOfType("presence_update");
        assertEquals("left", left.getString("event"));
        assertEquals(Json.createArrayBuilder().add("proj/bob").build(), left.getJsonArray("online_agents"));
    }

    @Test
    void welcomeAndPresenceKeepTheirMembersInTheBuildersOrder() {
        TestHub test = new TestHub();
        TestHub.Client bob = test.register("proj/bob");
        TestHub.Client alice = test.connect("proj/alice");
        assertEquals(java.util.List.of("sender", "target", "type", "payload", "timestamp", "hub_id", "connected_clients",
                "online_agents", "protocol_version"), java.util.List.copyOf(alice.peer().lastOfType("welcome").keySet()));
        alice.send(TestHub.frame("heartbeat", "System", "online"));
        JsonObject presence = bob.peer().lastOfType("presence_update");
        assertEquals(java.util.List.of("sender", "target", "type", "payload", "timestamp", "hub_id", "online_agents",
                "event", "agent"), java.util.List.copyOf(presence.keySet()));
        assertEquals("SynapseHub", presence.getString("sender"));
        assertEquals("all", presence.getString("target"));
    }

    @Test
    void nameConflictWithoutTakeoverClosesTheNewcomer4009() {
        TestHub test = new TestHub();
        test.register("proj/bob");
        TestHub.Client second = test.register("proj/bob");
        JsonObject conflict = second.peer().lastOfType("name_conflict");
        assertEquals("Name 'proj/bob' is already online from another session. Use a unique --name.",
                conflict.getString("payload"));
        assertEquals(4009, second.peer().closeCode());
        assertEquals("name conflict", second.peer().closeReason());
    }

    @Test
    void reservedNamesAreRefused() {
        TestHub test = new TestHub();
        for (String name : new String[] {"SynapseHub", "SYSTEM", "synapse", "bob@other-hub"}) {
            TestHub.Client client = test.register(name);
            assertEquals(4009, client.peer().closeCode(), name);
            assertEquals("reserved identity", client.peer().closeReason());
            assertTrue(client.peer().lastOfType("name_conflict").getString("payload").contains("reserved"));
        }
        TestHub.Client ordinary = test.register("proj/system");
        assertEquals(0, ordinary.peer().closeCode(), "project-scoped system is ordinary");
    }

    @Test
    void takeoverRebindsWithoutPresenceChurnAndSupersedesTheOldSocket() {
        TestHub test = new TestHub();
        TestHub.Client watcher = test.register("proj/watcher");
        TestHub.Client old = test.register("proj/bob");
        watcher.peer().clear();
        TestHub.Client fresh = test.register("proj/bob", Json.createObjectBuilder().add("takeover", true));
        assertEquals(4010, old.peer().closeCode());
        assertEquals("superseded", old.peer().closeReason());
        test.hub.closed(old.connection());
        assertEquals(0, fresh.peer().closeCode());
        assertTrue(watcher.peer().ofType("presence_update").isEmpty(), "no joined, no left for a takeover");
        assertTrue(test.hub.context().registry().socketOf("proj/bob") == fresh.connection());

        test.advance(0.5);
        TestHub.Client tooSoon = test.register("proj/bob", Json.createObjectBuilder().add("takeover", true));
        assertEquals(4014, tooSoon.peer().closeCode());
        assertEquals("takeover cooldown", tooSoon.peer().closeReason());
    }

    @Test
    void fifthTakeoverWithinThirtySecondsQuarantinesTheName() {
        TestHub test = new TestHub();
        test.register("proj/bob");
        TestHub.Client last = null;
        for (int i = 0; i < 5; i++) {
            test.advance(3);
            last = test.register("proj/bob", Json.createObjectBuilder().add("takeover", true));
        }
        assertEquals(4014, last.peer().closeCode());
        assertEquals("takeover quarantine", last.peer().closeReason());
    }

    @Test
    void securedHubDemandsTheTokenOnTheFirstFrameAndWelcomesAfterBinding() {
        TestHub test = new TestHub(SynapseSettings.builder().token("s3cret").build(), new InMemoryJournal());
        TestHub.Client noToken = test.register("proj/a");
        assertTrue(noToken.peer().ofType("welcome").isEmpty(), "no welcome before auth");
        assertEquals("Authentication token required.", noToken.peer().lastOfType("auth_denied").getString("payload"));
        assertEquals(4010, noToken.peer().closeCode());
        assertEquals("auth denied", noToken.peer().closeReason());

        TestHub.Client wrong = test.register("proj/a", Json.createObjectBuilder().add("token", "nope"));
        assertEquals("Invalid authentication token.", wrong.peer().lastOfType("auth_denied").getString("payload"));

        TestHub.Client good = test.register("proj/a", Json.createObjectBuilder().add("token", "s3cret"));
        JsonObject welcome = good.peer().lastOfType("welcome");
        assertFalse(welcome.getJsonArray("online_agents").contains(Json.createValue("proj/a")));
        assertEquals(0, good.peer().closeCode());
        assertTrue(good.connection().quotaPrincipal().startsWith("auth-token:"));
        good.chat("all", "hi");
        JsonObject echo = good.peer().lastOfType("chat");
        assertFalse(echo.containsKey("token"));
    }

    @Test
    void nameSwitchOnABoundSocketIsRefused() {
        TestHub test = new TestHub();
        TestHub.Client bob = test.register("proj/bob");
        bob.send(TestHub.frame("chat", "all", "x").add("sender", "proj/mallory"));
        assertEquals("Sender name switch denied: 'proj/bob' -> 'proj/mallory'. Reconnect with a new --name.",
                bob.peer().lastOfType("name_conflict").getString("payload"));
        assertEquals(4009, bob.peer().closeCode());
        assertEquals("name switch", bob.peer().closeReason());
    }

    @Test
    void registrationDeadlineClosesAnUnboundSocket4012() {
        TestHub test = new TestHub();
        TestHub.Client idle = test.connect("idle");
        test.hub.registration().registrationDeadline(idle.connection());
        assertEquals(4012, idle.peer().closeCode());
        assertEquals("registration timeout", idle.peer().closeReason());
        TestHub.Client bound = test.register("proj/ok");
        test.hub.registration().registrationDeadline(bound.connection());
        assertEquals(0, bound.peer().closeCode());
    }

    @Test
    void admissionCeilingsRefuseBeyondCapacityAndPerHost() {
        TestHub capped = new TestHub(SynapseSettings.builder().maxClients(1).build(), new InMemoryJournal());
        capped.connect("a");
        TestHub.Client second = capped.connect("b");
        assertEquals(4013, second.peer().closeCode());
        assertEquals("hub at capacity", second.peer().closeReason());

        TestHub perHost = new TestHub(SynapseSettings.builder().maxClientsPerHost(1).build(), new InMemoryJournal());
        perHost.connect("a");
        TestHub.Client again = perHost.connect("b");
        assertEquals(4015, again.peer().closeCode());

        TestHub secured = new TestHub(SynapseSettings.builder().token("t").maxUnauthenticated(1).build(),
                new InMemoryJournal());
        secured.connect("a");
        TestHub.Client unauth = secured.connect("b");
        assertEquals(4014, unauth.peer().closeCode());
        assertEquals("too many unauthenticated connections", unauth.peer().closeReason());
    }

    @Test
    void ownershipLeaseMustBePresentedOnRebind() {
        TestHub test = new TestHub();
        TestHub.Client owner = test.register("proj/bob", Json.createObjectBuilder().add("lease", true));
        String lease = owner.peer().lastOfType("lease_granted").getString("owner_lease");
        owner.disconnect();
        TestHub.Client thief = test.register("proj/bob");
        assertEquals(4016, thief.peer().closeCode());
        assertEquals("name owned", thief.peer().closeReason());
        TestHub.Client back = test.register("proj/bob", Json.createObjectBuilder().add("owner_lease", lease));
        assertEquals(0, back.peer().closeCode());
    }
}
