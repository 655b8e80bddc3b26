package org.switchboard.ops.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

class OperatorAuditTest {

    @Test
    void reasonIsRequiredTrimmedAndBounded() {
        assertEquals(400, assertThrows(OperatorRefusal.class, () -> OperatorAudit.requireReason(null)).status());
        assertEquals(400, assertThrows(OperatorRefusal.class, () -> OperatorAudit.requireReason(" \t")).status());
        assertThrows(OperatorRefusal.class, () -> OperatorAudit.requireReason("x".repeat(OperatorAudit.MAX_REASON + 1)));
        assertEquals("why", OperatorAudit.requireReason("  why \n"));
        assertEquals("a b", OperatorAudit.requireReason("a\nb"));
    }

    @Test
    void eventCarriesPrincipalOperationTargetReason() {
        JsonObject p = OperatorAudit.event("jmx:ops", "op", "T-1", "because", 12.5).payload();
        assertEquals("jmx:ops", p.getString("principal"));
        assertEquals("op", p.getString("operation"));
        assertEquals("T-1", p.getString("target"));
        assertEquals("because", p.getString("reason"));
        assertEquals(12.5, p.getJsonNumber("at").doubleValue());
        assertEquals(OperatorAudit.KIND, OperatorAudit.event("a", "b", "c", "d", 0).kind());
    }

    @Test
    void blankPrincipalIsUnknownAndLongOnesAreCut() {
        assertEquals("unknown", OperatorAudit.principal(null));
        assertEquals("unknown", OperatorAudit.principal(" "));
        assertEquals(OperatorAudit.MAX_PRINCIPAL, OperatorAudit.principal("p".repeat(300)).length());
    }
}
