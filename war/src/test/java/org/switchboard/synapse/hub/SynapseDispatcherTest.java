package org.switchboard.synapse.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.InMemoryJournal;

class SynapseDispatcherTest {

    @Test
    void frameLevelRefusalsTargetAllAndKeepTheSocketOpen() {
        TestHub test = new TestHub();
        TestHub.Client bob = test.register("proj/bob");
        bob.sendRaw("{oops");
        JsonObject error = bob.peer().lastOfType("error");
        assertEquals("Malformed JSON.", error.getString("payload"));
        assertEquals("all", error.getString("target"));
        bob.sendRaw("null");
        assertEquals("Malformed frame: expected a JSON object.", bob.peer().lastOfType("error").getString("payload"));
        bob.sendRaw("{\"sender\":5}");
        assertEquals("Malformed frame: 'sender' must be a string.", bob.peer().lastOfType("error").getString("payload"));
        test.hub.dispatcher().onBinary(bob.connection(), ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xfe}));
        assertEquals("Malformed JSON.", bob.peer().lastOfType("error").getString("payload"));
        bob.send(TestHub.frame(" WHO_REQUEST ", "System", "who"));
        assertEquals("proj/bob", bob.peer().lastOfType("who_snapshot").getString("target"), "type trimmed and lower-cased");
        bob.send(TestHub.frame("nope", "System", "?"));
        JsonObject unknown = bob.peer().lastOfType("error");
        assertEquals("Unknown message type 'nope'.", unknown.getString("payload"));
        assertEquals("proj/bob", unknown.getString("target"));
        assertEquals(0, bob.peer().closeCode());
    }

    @Test
    void aMalformedFirstFrameDoesNotBind() {
        TestHub test = new TestHub();
        TestHub.Client early = test.connect("early");
        early.sendRaw("[]");
        assertEquals("Malformed frame: expected a JSON object.", early.peer().lastOfType("error").getString("payload"));
        early.send(TestHub.frame("heartbeat", "System", "online"));
        assertEquals("early", early.connection().name());
    }

    @Test
    void blankSenderOnTheFirstFrameClosesWithRegistrationRequired() {
        TestHub test = new TestHub();
        TestHub.Client anonymous = test.connect("anon");
        anonymous.sendRaw("{\"type\":\"heartbeat\",\"sender\":\"  \"}");
        assertEquals(4010, anonymous.peer().closeCode());
        assertEquals("registration required", anonymous.peer().closeReason());
    }

    @Test
    void anUnexpectedHandlerExceptionClosesOnlyThatConnectionWith1011() {
        TestHub test = new TestHub();
        test.hub.dispatcher().register(new VerbHandler() {
            @Override
            public Set<String> types() {
                return Set.of("explode");
            }

            @Override
            public void handle(InboundFrame frame, SynapseContext context) {
                throw new IllegalStateException("boom");
            }
        });
        TestHub.Client watcher = test.register("proj/watcher");
        TestHub.Client victim = test.register("proj/victim");
        victim.send(TestHub.frame("explode", "System", "!"));
        assertEquals(1011, victim.peer().closeCode());
        assertEquals(0, watcher.peer().closeCode());
        test.hub.closed(victim.connection()); // what the container does after the close
        assertEquals("left", watcher.peer().lastOfType("presence_update").getString("event"));
        assertTrue(!test.hub.context().registry().boundNames().contains("proj/victim"));
    }

    @Test
    void quarantinedJournalRefusesMutationsButAnswersQueries() {
        InMemoryJournal journal = new InMemoryJournal();
        journal.append("chat", jakarta.json.Json.createObjectBuilder().add("sender", "a").add("target", "b").build());
        journal.markCorrupt(1);
        TestHub test = new TestHub(journal);
        TestHub.Client bob = test.register("proj/bob");
        bob.chat("all", "x");
        JsonObject refused = bob.peer().lastOfType("error");
        assertTrue(refused.getBoolean("journal_recovery_required"));
        assertEquals(1, refused.getInt("corrupt_rows"));
        assertEquals(1, refused.getInt("first_corrupt_seq"));
        assertTrue(bob.peer().ofType("chat").isEmpty());
        bob.send(TestHub.frame("who_request", "System", "who"));
        assertEquals(1, bob.peer().ofType("who_snapshot").size());
    }

    @Test
    void keepaliveRedeclaresRolesAndQueriesReportThem() {
        TestHub test = new TestHub();
        TestHub.Client bob = test.register("proj/bob");
        bob.send(TestHub.frame("heartbeat", "System", "alive").add("roles",
                jakarta.json.Json.createArrayBuilder().add("proj/reviewer").add("").add(7).add("proj/reviewer")));
        bob.send(TestHub.frame("who_request", "System", "who"));
        JsonObject who = bob.peer().lastOfType("who_snapshot");
        assertEquals(1, who.getJsonObject("agent_roles").getJsonArray("proj/bob").size());
        assertTrue(who.getJsonObject("agent_liveness").getJsonObject("proj/bob").getBoolean("proven_live"));
        bob.send(TestHub.frame("state_request", "System", "s").add("request_id", "r-1"));
        JsonObject state = bob.peer().lastOfType("state_snapshot");
        assertEquals("r-1", state.getString("request_id"));
        assertEquals("proj/bob", state.getJsonObject("snapshot").getJsonArray("agents").getJsonObject(0).getString("agent"));
        bob.chat("all", "one");
        bob.send(TestHub.frame("resume_request", "System", "r").add("since", 0));
        assertEquals(1, bob.peer().lastOfType("resume_snapshot").getJsonArray("messages").size());
    }

    @Test
    void resourceAliasesReachTheResourceHandlerAsResource() {
        TestHub test = new TestHub();
        java.util.List<String> seen = new java.util.ArrayList<>();
        test.hub.dispatcher().register(new VerbHandler() {
            @Override
            public Set<String> types() {
                return Set.of("resource");
            }

            @Override
            public void handle(InboundFrame frame, SynapseContext context) {
                seen.add(frame.type() + ":" + frame.frame().getString("type"));
            }
        });
        TestHub.Client bob = test.register("proj/bob");
        bob.send(TestHub.frame("resource", "System", "r"));
        bob.send(TestHub.frame("resource_offer", "System", "r"));
        bob.send(TestHub.frame("Offer_Resource", "System", "r"));
        assertEquals(java.util.List.of("resource:resource", "resource:resource", "resource:resource"), seen);
    }

    @Test
    void normalisationCopiesOnlyWhenSomethingChanges() {
        JsonObject clean = jakarta.json.Json.createObjectBuilder().add("type", "chat").add("sender", "p/a")
                .add("target", "p/b").add("payload", "x").build();
        assertTrue(clean == SynapseDispatcher.normalised(clean, "p/a", "chat", "p/b"), "nothing to change: same object");
        JsonObject messy = jakarta.json.Json.createObjectBuilder().add("type", " CHAT").add("token", "secret")
                .add("target", " p/b ").add("payload", "x").build();
        JsonObject fixed = SynapseDispatcher.normalised(messy, "p/a", "chat", "p/b");
        assertEquals("{\"type\":\"chat\",\"target\":\"p/b\",\"payload\":\"x\",\"sender\":\"p/a\"}", fixed.toString(),
                "token dropped, members fixed in place, missing sender added");
        JsonObject numeric = jakarta.json.Json.createObjectBuilder().add("type", "chat").add("sender", "p/a")
                .add("target", "p/b").add("token", 5).build();
        assertEquals(Set.of("type", "sender", "target"), SynapseDispatcher.normalised(numeric, "p/a", "chat", "p/b").keySet());
    }

    @Test
    void chatsCarryingLongNumbersAreDeliveredAndOverLongOnesRefusedWithTheSocketOpen() {
        TestHub test = new TestHub();
        TestHub.Client alice = test.register("proj/alice");
        TestHub.Client bob = test.register("proj/bob");
        String digits = "7".repeat(4300);
        // client_msg_id takes the duplicate-suppression path, which re-parses the stamped frame
        for (String number : new String[] {"1".repeat(1101), digits, "-" + digits, "0." + "3".repeat(2000)}) {
            bob.peer().clear();
            alice.sendRaw("{\"type\":\"chat\",\"target\":\"proj/bob\",\"payload\":\"n\",\"client_msg_id\":\"m"
                    + number.length() + number.charAt(0) + "\",\"n\":" + number + "}");
            assertEquals(0, alice.peer().closeCode(), () -> "closed " + alice.peer().closeReason());
            assertEquals(1, bob.peer().ofType("chat").size(), () -> "a " + number.length() + "-char number; alice saw " + alice.peer().frames());
            JsonObject chat = bob.peer().lastOfType("chat");
            assertEquals(new java.math.BigDecimal(number), chat.getJsonNumber("n").bigDecimalValue());
            assertEquals(0, alice.peer().closeCode());
        }
        alice.sendRaw("{\"type\":\"chat\",\"target\":\"proj/bob\",\"payload\":\"n\",\"n\":" + "7".repeat(4301) + "}");
        JsonObject refused = alice.peer().lastOfType("error");
        assertEquals("Malformed JSON.", refused.getString("payload"));
        assertEquals("all", refused.getString("target"));
        assertEquals(0, alice.peer().closeCode());
        alice.chat("proj/bob", "still here");
        assertEquals("still here", bob.peer().lastOfType("chat").getString("payload"));
    }

    @Test
    void thePipelineIsDeclaredInTheOrderOfAdvancedSection1_4() {
        TestHub test = new TestHub();
        java.util.List<String> steps = test.hub.dispatcher().steps();
        int last = 0;
        for (String step : steps) {
            java.util.regex.Matcher number = java.util.regex.Pattern.compile("^(\\d+)").matcher(step);
            if (number.find()) {
                int n = Integer.parseInt(number.group(1));
                assertTrue(n > last, "step '" + step + "' comes after step " + last + " in " + steps);
                last = n;
            }
        }
        assertEquals("1 decode", steps.get(0));
        assertEquals("19 dispatch", steps.get(steps.size() - 1));
    }
}
