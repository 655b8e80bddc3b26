package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.Test;

class ForwardFramesTest {

    private static final String ID = "0f3c9a2e41b84d2a9c6e7d1b2a3f4e5d";

    private static JsonObjectBuilder result() {
        return Json.createObjectBuilder().add("type", "multihub_message_result").add("sender", "System").add("target", "hub-a")
                .add("forward_id", ID).add("disposition", "accepted").add("answering_hub", "hub-b")
                .add("reason_code", "").add("detail", "")
                .add("result", Json.createObjectBuilder().add("seq", 88).add("delivered", true));
    }

    @Test
    void chatForwardHasTheShapeOfTheSpecExample() {
        JsonObject f = ForwardFrames.chat("hub-a", ID, "ACME/alice", "ACME/bob", Json.createValue("Build is green."), 311,
                1790000001.5, "c-311");
        assertEquals("{\"type\":\"multihub_message_forward\",\"sender\":\"hub-a\",\"target\":\"System\","
                + "\"forward_id\":\"" + ID + "\",\"kind\":\"chat\",\"sender_seat\":\"ACME/alice\",\"target_seat\":\"ACME/bob\","
                + "\"body\":{\"payload\":\"Build is green.\",\"origin_msg_id\":311,\"origin_timestamp\":1.7900000015E9,"
                + "\"client_msg_id\":\"c-311\"}}", f.toString().replace("1790000001.5", "1.7900000015E9"));
        JsonObject who = ForwardFrames.who("hub-a", ID, "ACME/alice");
        assertEquals("who", who.getString("kind"));
        assertFalse(who.containsKey("target_seat"));
        assertEquals(0, who.getJsonObject("body").size());
    }

    @Test
    void registrationIsV5UnderTheHubsOwnId() {
        JsonObject r = ForwardFrames.registration("hub-a", "tok", 1.0);
        assertEquals("hub-a", r.getString("sender"));
        assertEquals(5, r.getInt("protocol_version"));
        assertEquals("tok", r.getString("token"));
        assertFalse(ForwardFrames.registration("hub-a", "", 1.0).containsKey("token"));
    }

    @Test
    void readsAWellFormedResult() {
        ForwardFrames.Answer a = ForwardFrames.read(result().build(), ID);
        assertEquals(ForwardFrames.Kind.RESULT, a.kind());
        assertEquals("accepted", a.disposition());
        assertEquals("hub-b", a.answeringHub());
        assertEquals(88, a.result().getInt("seq"));
    }

    @Test
    void aPlainErrorIsARejection() {
        JsonObject error = Json.createObjectBuilder().add("type", "error").add("payload", "Unknown message type").build();
        assertEquals(ForwardFrames.Kind.REJECTED, ForwardFrames.read(error, ID).kind());
    }

    @Test
    void anythingElseIsNoAnswer() {
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("forward_id", "other").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("disposition", "maybe").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("answering_hub", "-x").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("disposition", "refused").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("disposition", "refused")
                .add("reason_code", "Bad-Code").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("detail", "x".repeat(513)).build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(result().add("result", "text").build(), ID).kind());
        assertEquals(ForwardFrames.Kind.INVALID, ForwardFrames.read(null, ID).kind());
        ForwardFrames.Answer refused = ForwardFrames.read(result().add("disposition", "refused")
                .add("reason_code", "namespace_not_granted").build(), ID);
        assertEquals(ForwardFrames.Kind.RESULT, refused.kind());
        assertEquals("namespace_not_granted", refused.reasonCode());
    }

    @Test
    void forwardIdsAre32LowerHexLedByTheirMillisecond() {
        String id = ForwardFrames.forwardId(0x0123_4567_89ABL, new java.util.Random(7));
        assertEquals(32, id.length(), id);
        assertEquals("0123456789ab", id.substring(0, 12));
        org.junit.jupiter.api.Assertions.assertTrue(id.matches("[0-9a-f]{32}"), id);
        org.junit.jupiter.api.Assertions.assertTrue(ForwardFrames.newForwardId().matches("[0-9a-f]{32}"));
    }

    @Test
    void laterForwardIdsSortAfterEarlierOnesAndNoneRepeat() {
        java.util.Set<String> seen = new java.util.HashSet<>();
        String previous = "";
        java.util.Random random = new java.util.Random(11);
        for (long millis = 1_790_000_000_000L; millis < 1_790_000_000_000L + 20_000; millis++) {
            String id = ForwardFrames.forwardId(millis, random);
            org.junit.jupiter.api.Assertions.assertTrue(id.compareTo(previous) > 0, previous + " then " + id);
            previous = id;
            seen.add(id);
            seen.add(ForwardFrames.forwardId(millis, random)); // a second one in the same millisecond
        }
        assertEquals(40_000, seen.size());
    }
}
