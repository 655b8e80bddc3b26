package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** The exact advert shape of §7.3: closed key sets and every field rule. */
class EntitlementAdvertShapeTest {

    static JsonObjectBuilder window() {
        return Jsons.PROVIDER.createObjectBuilder().add("window_ref", "0123456789abcdef")
                .add("ends_at", "2026-12-02T05:00:00+00:00").add("current", true).add("remaining_bucket", "10-50%")
                .add("balance_evidence", "observed").add("observation_age_seconds", 12.5)
                .add("forecast_state", "quiet").add("confidence", "operator");
    }

    static JsonObjectBuilder advert(JsonObjectBuilder window) {
        return Jsons.PROVIDER.createObjectBuilder().add("schema", 1).add("pool_alias", "team-gpu.a")
                .add("unit", "gpu-hours").add("resource_kind", JsonValue.NULL)
                .add("capabilities", Jsons.PROVIDER.createArrayBuilder().add("train").add("cuda:12"))
                .add("data_classes", Jsons.PROVIDER.createArrayBuilder().add("internal"))
                .add("eligible_projects", Jsons.PROVIDER.createArrayBuilder().add("ACME"))
                .add("account_usable", true).add("as_of", "2026-12-02T01:00:00Z")
                .add("windows", Jsons.PROVIDER.createArrayBuilder().add(window));
    }

    static JsonObjectBuilder advert() {
        return advert(window());
    }

    static void refused(JsonObject advert, String start) {
        String problem = EntitlementAdvertShape.problem(advert);
        assertTrue(problem != null && problem.startsWith(start), start + " expected, got " + problem);
    }

    @Test
    void aValidAdvertPasses() {
        assertNull(EntitlementAdvertShape.problem(advert().build()));
        assertNull(EntitlementAdvertShape.problem(advert(window().add("observation_age_seconds", JsonValue.NULL))
                .add("resource_kind", "gpu").add("windows", Jsons.PROVIDER.createArrayBuilder()).build()));
        assertEquals("team-gpu.a", EntitlementAdvertShape.poolAlias(advert().build()));
    }

    @Test
    void theKeySetIsExact() {
        refused(advert().add("note", "x").build(), "advert has an unexpected key");
        refused(advert().remove("unit").build(), "advert is missing unit");
        refused(advert(window().add("extra", 1)).build(), "advert.windows[0] has an unexpected key");
        refused(advert(window().remove("confidence")).build(), "advert.windows[0] is missing confidence");
        assertEquals("advert must be an object", EntitlementAdvertShape.problem(JsonValue.EMPTY_JSON_ARRAY));
        assertEquals("advert must be an object", EntitlementAdvertShape.problem(null));
    }

    @Test
    void everyFieldRuleRefuses() {
        refused(advert().add("schema", 2).build(), "advert.schema");
        refused(advert().add("schema", "1").build(), "advert.schema");
        refused(advert().add("schema", 1.5).build(), "advert.schema");
        refused(advert().add("pool_alias", "a/b").build(), "advert.pool_alias");
        refused(advert().add("pool_alias", "x".repeat(65)).build(), "advert.pool_alias");
        refused(advert().add("unit", "gpu hours").build(), "advert.unit");
        refused(advert().add("resource_kind", 3).build(), "advert.resource_kind");
        var many = Jsons.PROVIDER.createArrayBuilder();
        for (int i = 0; i < 33; i++) {
            many.add("t" + i);
        }
        refused(advert().add("capabilities", many).build(), "advert.capabilities");
        refused(advert().add("data_classes", Jsons.PROVIDER.createArrayBuilder().add(1)).build(), "advert.data_classes");
        refused(advert().add("eligible_projects", "ACME").build(), "advert.eligible_projects");
        refused(advert().add("account_usable", "yes").build(), "advert.account_usable");
        refused(advert().add("as_of", "2026-12-02T01:00:00").build(), "advert.as_of");
        refused(advert().add("as_of", "2026-12-02T01:00:00.000000000000000000+00:00").build(), "advert.as_of");
        var windows = Jsons.PROVIDER.createArrayBuilder();
        for (int i = 0; i < 17; i++) {
            windows.add(window());
        }
        refused(advert().add("windows", windows).build(), "advert.windows");
        refused(advert(window().add("window_ref", "0123456789ABCDEF")).build(), "advert.windows[0].window_ref");
        refused(advert(window().add("ends_at", "tomorrow")).build(), "advert.windows[0].ends_at");
        refused(advert(window().add("current", 1)).build(), "advert.windows[0].current");
        refused(advert(window().add("remaining_bucket", "half")).build(), "advert.windows[0].remaining_bucket");
        refused(advert(window().add("balance_evidence", "guessed")).build(), "advert.windows[0].balance_evidence");
        refused(advert(window().add("observation_age_seconds", -1)).build(), "advert.windows[0].observation_age_seconds");
        refused(advert(window().add("observation_age_seconds", "5")).build(), "advert.windows[0].observation_age_seconds");
        refused(advert(window().add("forecast_state", "sunny")).build(), "advert.windows[0].forecast_state");
        refused(advert(window().add("confidence", "high")).build(), "advert.windows[0].confidence");
    }
}
