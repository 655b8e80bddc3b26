package org.switchboard.redsyn.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlanTableTest {

    private static Map<String, Plan> build(List<String> names, List<String> env, Map<String, String> values) {
        return PlanTable.build(names, env, key -> Optional.ofNullable(values.get(key)));
    }

    @Test
    void withoutKeysTheTableIsTheDocuments() {
        Map<String, Plan> plans = build(List.of("redsyn.admin.token"), List.of("PATH"), Map.of());
        assertEquals(List.of("free", "pro", "enterprise"), List.copyOf(plans.keySet()));
        assertEquals(Plan.FREE, plans.get("free"));
        assertEquals(Plan.PRO, plans.get("pro"));
        assertEquals(Plan.ENTERPRISE, plans.get("enterprise"));
    }

    @Test
    void aPlanNamedOnlyInTheEnvironmentIsDefinedAndInheritsFreesOtherLimits() {
        Map<String, Plan> plans = build(List.of(), List.of("REDSYN_PLANS_TINY_MESSAGES_PER_DAY", "REDSYN_PLANS_TINY_AGENTS"),
                Map.of("redsyn.plans.tiny.messages-per-day", "5", "redsyn.plans.tiny.agents", "2"));
        Plan tiny = plans.get("tiny");
        assertEquals("tiny", tiny.name());
        assertEquals(5, tiny.messagesPerDay());
        assertEquals(2, tiny.agents());
        assertEquals(Plan.FREE.filesPendingBytes(), tiny.filesPendingBytes());
        assertEquals(Plan.FREE.maxTtlSeconds(), tiny.maxTtlSeconds());
        assertEquals(Plan.FREE.links(), tiny.links());
        assertEquals(Plan.FREE.webhooks(), tiny.webhooks());
    }

    @Test
    void dottedKeysDefinePlansAndChangeBuiltInOnes() {
        Map<String, Plan> plans = build(List.of("redsyn.plans.team.links", "redsyn.plans.free.messages-per-day"), List.of(),
                Map.of("redsyn.plans.team.links", "unlimited", "redsyn.plans.free.messages-per-day", "10",
                        "redsyn.plans.team.ttl-max-seconds", "3600", "redsyn.plans.team.file-bytes", "1_000"));
        assertEquals(10, plans.get("free").messagesPerDay());
        Plan team = plans.get("team");
        assertEquals(-1, team.links());
        assertEquals(3600, team.maxTtlSeconds());
        assertEquals(1000, team.filesPendingBytes());
        assertEquals(10, team.messagesPerDay(), "unset limits of a new plan are Free's as configured");
    }

    @Test
    void badKeysAndValuesAreRefusedLoudly() {
        IllegalArgumentException unknownLimit = assertThrows(IllegalArgumentException.class,
                () -> build(List.of("redsyn.plans.tiny.messages"), List.of(), Map.of()));
        assertTrue(unknownLimit.getMessage().contains("redsyn.plans.tiny.messages"));
        assertThrows(IllegalArgumentException.class,
                () -> build(List.of("redsyn.plans.tiny.agents"), List.of(), Map.of("redsyn.plans.tiny.agents", "many")));
        assertThrows(IllegalArgumentException.class,
                () -> build(List.of("redsyn.plans.tiny.agents"), List.of(), Map.of("redsyn.plans.tiny.agents", "-5")));
    }

    @Test
    void environmentNamesThatAreNotPlanKeysAreIgnored() {
        Map<String, Plan> plans = build(List.of(), List.of("REDSYN_PLANS_TINY", "REDSYN_PLANS_TINY_COLOUR", "REDSYN_ADMIN_TOKEN"), Map.of());
        assertEquals(3, plans.size());
    }
}
