package org.switchboard.redsyn.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LinkSnapshotTest {

    private static LinkSnapshot link(LinkState state, LinkRules globexRules) {
        return new LinkSnapshot("acme", "globex", state,
                Map.of("globex", List.of(new Exposure(ExposureKind.AGENT, "erp/*"), new Exposure(ExposureKind.SUB, "news/*"))),
                Map.of("acme", LinkRules.DEFAULT, "globex", globexRules));
    }

    @Test
    void exposuresCountOnlyWhileActiveAndOnlyForTheExposingSide() {
        LinkSnapshot active = link(LinkState.ACTIVE, LinkRules.DEFAULT);
        assertTrue(active.exposes("globex", ExposureKind.AGENT, "erp/bob/billing"));
        assertFalse(active.exposes("globex", ExposureKind.AGENT, "hr/bob/billing"));
        assertFalse(active.exposes("globex", ExposureKind.PUB, "news/today"), "sub does not let them publish");
        assertFalse(active.exposes("acme", ExposureKind.AGENT, "erp/bob/billing"), "acme exposes nothing");
        assertFalse(link(LinkState.PROPOSED, LinkRules.DEFAULT).exposes("globex", ExposureKind.AGENT, "erp/bob/billing"));
        assertFalse(link(LinkState.REVOKED, LinkRules.DEFAULT).exposes("globex", ExposureKind.AGENT, "erp/bob/billing"));
        assertFalse(LinkSnapshot.none("acme", "globex").exposes("globex", ExposureKind.AGENT, "erp/bob/billing"));
    }

    @Test
    void byDefaultOnlySignedMessagesEnter() {
        LinkSnapshot l = link(LinkState.ACTIVE, LinkRules.DEFAULT);
        assertEquals(Optional.of("globex takes only signed messages from acme"), l.entryRefusal("globex", false, "127.0.0.1"));
        assertEquals(Optional.empty(), l.entryRefusal("globex", true, "127.0.0.1"));
    }

    @Test
    void theIpsRuleOfTheReceivingSideApplies() {
        LinkSnapshot l = link(LinkState.ACTIVE, new LinkRules(false, IpAllowList.parse("203.0.113.7")));
        assertTrue(l.entryRefusal("globex", false, "127.0.0.1").orElseThrow().contains("listed addresses"));
        assertEquals(Optional.empty(), l.entryRefusal("globex", false, "203.0.113.7"));
        assertTrue(l.entryRefusal("acme", false, "203.0.113.7").isPresent(), "acme keeps its own default rules");
    }

    @Test
    void nothingEntersWithoutAnActiveLink() {
        assertTrue(link(LinkState.REVOKED, new LinkRules(false, IpAllowList.parse(""))).entryRefusal("globex", true, null)
                .orElseThrow().startsWith("no active link"));
    }

    @Test
    void pairsAndInsidePaths() {
        assertEquals(List.of("acme", "globex"), List.of(LinkSnapshot.pair("globex", "acme")));
        assertEquals("erp/bob/billing", LinkSnapshot.inside("globex/erp/bob/billing"));
    }
}
