package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The validation order and refusal codes of §2.5/§2.18, and that an invalid request_id is never echoed. */
class RequestValidationTest {

    private static final double NOW = 1_790_000_000.0;
    private static final String INC = "5e0c6f0d2a9b4c7e8f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70";

    static JsonObjectBuilder valid() {
        return Json.createObjectBuilder().add("type", "delivery_request").add("sender", "ACME/planner")
                .add("target", "ACME/builder").add("payload", "").add("protocol_version", 3)
                .add("request_id", "rq-7781").add("idempotency_key", "ik-7781").add("target_incarnation", INC)
                .add("mode", "steer").add("allowed_fallbacks", Json.createArrayBuilder().add("follow_up"))
                .add("task_id", "T-42").add("body", "Rebase on main before continuing.").add("deadline", NOW + 600.0);
    }

    private static Refusal refusal(JsonObject frame) {
        return RequestValidation.validate(frame, "ACME/planner", 3, true, NOW).refusal();
    }

    @Test
    void aValidRequestPasses() {
        RequestValidation.Outcome outcome = RequestValidation.validate(valid().build(), "ACME/planner", 3, true, NOW);
        assertNull(outcome.refusal());
        assertEquals(List.of("follow_up"), outcome.intent().allowedFallbacks());
        assertEquals("T-42", outcome.intent().taskId());
    }

    /**
     * Starts from a frame broken in every field at once and repairs one field at a time: each step's
     * refusal names the next check of the §2.5 order.
     */
    @Test
    void firstFailureWinsInTheDocumentedOrder() {
        JsonObject broken = valid().add("colour", "red").add("protocol_version", 2).add("request_id", 7)
                .add("idempotency_key", "").add("target", "ACME/*").add("target_incarnation", INC.toUpperCase())
                .add("mode", "shout").add("allowed_fallbacks", Json.createArrayBuilder().add("steer"))
                .add("task_id", "x".repeat(129)).add("body", "").add("deadline", NOW - 1).build();
        List<String> seen = new ArrayList<>();
        JsonObject valid = valid().build();
        String[] repairOrder = {"colour", "protocol_version", "request_id", "idempotency_key", "target",
                "target_incarnation", "mode", "allowed_fallbacks", "task_id", "body", "deadline"};
        for (String field : repairOrder) {
            Refusal r = refusal(broken);
            seen.add(r.reasonCode() + " " + r.explanation().split(" ")[0]);
            JsonObjectBuilder repaired = Json.createObjectBuilder(broken);
            if (field.equals("colour")) {
                repaired.remove("colour");
            } else {
                repaired.add(field, valid.get(field));
            }
            broken = repaired.build();
        }
        assertNull(refusal(broken));
        assertEquals(List.of("invalid_shape unknown", "unsupported_protocol delivery", "invalid_shape request_id",
                "invalid_shape idempotency_key", "invalid_shape target", "invalid_shape target_incarnation",
                "unsupported_mode mode", "invalid_shape allowed_fallbacks", "invalid_shape task_id", "invalid_shape body",
                "deadline_expired deadline"), seen);
    }

    @Test
    void profileComesBeforeEverything() {
        JsonObject bad = valid().add("colour", "red").build();
        assertEquals("unsupported_protocol", RequestValidation.validate(bad, "a", 2, true, NOW).refusal().reasonCode());
        assertEquals("unsupported_profile", RequestValidation.validate(bad, "a", 3, false, NOW).refusal().reasonCode());
    }

    @Test
    void anInvalidRequestIdIsNeverEchoed() {
        assertEquals("", refusal(valid().add("request_id", "bad\u0001id").add("mode", "shout").build()).requestId());
        assertEquals("", refusal(valid().add("request_id", "x".repeat(129)).build()).requestId());
        assertEquals("", refusal(valid().add("request_id", "lone \uD800 surrogate").build()).requestId());
        assertEquals("rq-7781", refusal(valid().add("mode", "shout").build()).requestId());
    }

    @Test
    void fieldLimits() {
        assertNull(refusal(valid().add("body", "x".repeat(8192)).build()));
        assertEquals("invalid_shape", refusal(valid().add("body", "x".repeat(8193)).build()).reasonCode());
        // 2-byte characters: 4096 of them are 8192 bytes, one more is over
        assertNull(refusal(valid().add("body", "\u00e9".repeat(4096)).build()));
        assertEquals("invalid_shape", refusal(valid().add("body", "\u00e9".repeat(4097)).build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("target", "all").build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("target", "ACME/[ab]").build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("deadline", NOW + 86_401).build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("deadline", true).build()).reasonCode());
        assertEquals("unsupported_protocol", refusal(valid().add("protocol_version", true).build()).reasonCode());
        assertEquals("unsupported_protocol", refusal(valid().add("protocol_version", 3.5).build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("allowed_fallbacks", Json.createArrayBuilder()
                .add("follow_up").add("follow_up")).build()).reasonCode());
        assertEquals("invalid_shape", refusal(valid().add("allowed_fallbacks", Json.createArrayBuilder()
                .add("follow_up").add("next_turn").add("interrupt").add("follow_up")).build()).reasonCode());
        assertEquals("unsupported_mode", refusal(valid().add("allowed_fallbacks", Json.createArrayBuilder()
                .add("later")).build()).reasonCode());
        assertNotNull(RequestValidation.validate(valid().remove("task_id").build(), "a", 3, true, NOW).intent());
        assertNull(refusal(valid().add("task_id", "").build()));
    }

    @Test
    void modeSelectionWalksTheFallbacksInOrder() {
        var caps = java.util.Map.of("follow_up", "native", "next_turn", "emulated");
        assertEquals(new ModeSelection.Selected("follow_up", "native"),
                ModeSelection.select("steer", List.of("follow_up"), caps));
        assertEquals(new ModeSelection.Selected("next_turn", "emulated"),
                ModeSelection.select("interrupt", List.of("next_turn", "follow_up"), caps));
        assertNull(ModeSelection.select("steer", List.of("interrupt"), caps));
    }

    @Test
    void taskControlIsNeverGrantedWithoutAnAclLayer() {
        assertEquals(false, TaskControl.granted(new TaskControl.Facts(true, false, true, true, "T-1", "a")));
        assertEquals(true, TaskControl.granted(new TaskControl.Facts(true, true, true, true, "T-1", "a")));
        assertEquals(false, TaskControl.granted(new TaskControl.Facts(true, true, true, true, "T-1", "a@hub-b")));
        assertEquals(false, TaskControl.granted(new TaskControl.Facts(true, true, true, true, "", "a")));
    }
}
