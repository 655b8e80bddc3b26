package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** Step 3 of §7.5: every field rule of guard_denial. */
class GuardDenialShapeTest {

    static final String HEX = "0123456789abcdef".repeat(4);

    static JsonObjectBuilder good() {
        return Jsons.PROVIDER.createObjectBuilder().add("type", "guard_denial").add("payload", "")
                .add("provider", "codex").add("reason_code", "GUARD_NO_CLAIM").add("path_count", 3)
                .add("actor_sha256", HEX).add("call_sha256", HEX).add("scope_sha256", HEX);
    }

    static void refused(JsonObjectBuilder frame, String field) {
        String problem = GuardDenialShape.problem(frame.build());
        assertTrue(problem != null && problem.startsWith(field), field + ": " + problem);
    }

    @Test
    void aWellFormedDenialPasses() {
        assertNull(GuardDenialShape.problem(good().build()));
        assertNull(GuardDenialShape.problem(good().add("idem_key", "k-1").add("path_count", 512).build()));
        assertNull(GuardDenialShape.problem(good().add("path_count", 0).build()));
    }

    @Test
    void eachFieldRuleRefuses() {
        refused(good().add("provider", "vim"), "provider");
        refused(good().remove("provider"), "provider");
        refused(good().add("reason_code", "GUARD_OTHER"), "reason_code");
        refused(good().add("path_count", 513), "path_count");
        refused(good().add("path_count", -1), "path_count");
        refused(good().add("path_count", true), "path_count");
        refused(good().add("path_count", 1.5), "path_count");
        refused(good().add("path_count", "3"), "path_count");
        refused(good().add("actor_sha256", HEX.toUpperCase()), "actor_sha256");
        refused(good().add("call_sha256", HEX.substring(1)), "call_sha256");
        refused(good().remove("scope_sha256"), "scope_sha256");
        refused(good().add("payload", "src/secret.txt"), "payload");
        refused(good().add("idem_key", 5), "idem_key");
        refused(good().add("idem_key", ""), "idem_key");
    }
}
