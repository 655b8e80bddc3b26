package org.switchboard.synapse.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** who/state snapshots over the reply budget keep their members (and types), fewer entries, and a marker. */
class SnapshotTrimTest {

    private static JsonObject who(int agents, int roleChars) {
        JsonArrayBuilder online = Json.createArrayBuilder();
        JsonObjectBuilder roles = Json.createObjectBuilder();
        for (int i = 0; i < agents; i++) {
            online.add("p/agent-" + i);
            roles.add("p/agent-" + i, Json.createArrayBuilder().add("r".repeat(roleChars)));
        }
        return Json.createObjectBuilder().add("type", "who_snapshot").add("online_agents", online)
                .add("agent_roles", roles).add("connected_clients", agents).build();
    }

    @Test
    void aSnapshotWithinTheBudgetIsLeftAlone() {
        JsonObject small = who(3, 10);
        assertSame(small, SnapshotTrim.fit(small, 10_000));
    }

    @Test
    void aLargerOneKeepsEveryMemberAndTypeWithFewerEntriesWithinTheBudget() {
        JsonObject big = who(200, 1000);
        long budget = 50_000;
        assertTrue(big.toString().length() > budget);
        JsonObject fitted = SnapshotTrim.fit(big, budget);
        assertTrue(fitted.toString().getBytes(StandardCharsets.UTF_8).length <= budget, fitted.toString().length() + " bytes");
        assertTrue(fitted.getBoolean("truncated"));
        assertEquals(200, fitted.getInt("connected_clients"), "scalars stay");
        assertEquals("who_snapshot", fitted.getString("type"));
        assertEquals(200, fitted.getJsonArray("online_agents").size(), "small members fit whole (they come first)");
        int roles = fitted.getJsonObject("agent_roles").size();
        assertTrue(roles > 0 && roles < 200, "roles cut: " + roles);
        assertEquals(big.getJsonObject("agent_roles").get("p/agent-0"), fitted.getJsonObject("agent_roles").get("p/agent-0"));
    }

    @Test
    void sizesAreCountedWithoutEncodingPastTheLimit() {
        JsonObject big = who(50, 1000);
        assertEquals(big.toString().getBytes(StandardCharsets.UTF_8).length, SnapshotTrim.size(big, Long.MAX_VALUE));
        assertTrue(SnapshotTrim.size(big, 100) > 100);
        assertFalse(SnapshotTrim.size(big, 100) >= big.toString().length(), "stopped early");
    }
}
