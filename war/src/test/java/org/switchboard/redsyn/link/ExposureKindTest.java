package org.switchboard.redsyn.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExposureKindTest {

    @Test
    void agentPatternsTakeTheDocumentsFormsOnly() {
        for (String ok : new String[] {"*", "erp/*", "erp/bob/*", "erp/bob/billing"}) {
            assertTrue(ExposureKind.AGENT.validPattern(ok), ok);
        }
        for (String bad : new String[] {"", "erp", "erp/bob", "*/bob/billing", "erp/*/billing", "a/b/c/d", "ERP/*", null}) {
            assertFalse(ExposureKind.AGENT.validPattern(bad), String.valueOf(bad));
        }
    }

    @Test
    void topicPatternsTakeTeamNameTeamStarOrStar() {
        for (ExposureKind k : new ExposureKind[] {ExposureKind.PUB, ExposureKind.SUB}) {
            assertTrue(k.validPattern("finance/invoices"));
            assertTrue(k.validPattern("finance/*"));
            assertTrue(k.validPattern("*"));
            assertFalse(k.validPattern("finance/ana/invoices"));
            assertFalse(k.validPattern("invoices"));
        }
    }

    @Test
    void patternsCoverPathsSegmentBySegment() {
        assertTrue(ExposureKind.covers("*", "erp/bob/billing"));
        assertTrue(ExposureKind.covers("erp/*", "erp/bob/billing"));
        assertFalse(ExposureKind.covers("erp/*", "erpx/bob/billing"), "a team prefix is not a team");
        assertTrue(ExposureKind.covers("erp/bob/*", "erp/bob/billing"));
        assertFalse(ExposureKind.covers("erp/bob/*", "erp/bobby/billing"));
        assertTrue(ExposureKind.covers("erp/bob/billing", "erp/bob/billing"));
        assertFalse(ExposureKind.covers("erp/bob/billing", "erp/bob/billing2"));
    }

    @Test
    void wireNames() {
        assertEquals(ExposureKind.SUB, ExposureKind.fromWire("sub"));
        assertEquals("pub", ExposureKind.PUB.wire());
        assertNull(ExposureKind.fromWire("AGENT"));
    }
}
