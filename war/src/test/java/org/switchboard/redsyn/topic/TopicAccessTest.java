package org.switchboard.redsyn.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.link.Exposure;
import org.switchboard.redsyn.link.ExposureKind;
import org.switchboard.redsyn.link.IpAllowList;
import org.switchboard.redsyn.link.LinkRules;
import org.switchboard.redsyn.link.LinkSnapshot;
import org.switchboard.redsyn.link.LinkState;

class TopicAccessTest {

    private static final TopicAddress NEWS = new TopicAddress("globex", "news", "today");
    private static final LinkRules OPEN = new LinkRules(false, IpAllowList.parse(""));

    private static LinkSnapshot link(LinkState state, List<Exposure> globexExposes, LinkRules acmeRules, LinkRules globexRules) {
        return new LinkSnapshot("acme", "globex", state, Map.of("globex", globexExposes), Map.of("acme", acmeRules, "globex", globexRules));
    }

    @Test
    void insideItsOrganisationATopicIsOpen() {
        LinkSnapshot none = LinkSnapshot.none("globex", "globex");
        assertEquals(Optional.empty(), TopicAccess.publishRefusal("globex", NEWS, none, false, null));
        assertEquals(Optional.empty(), TopicAccess.subscribeRefusal("globex", NEWS, none));
        assertEquals(Optional.empty(), TopicAccess.deliveryRefusal("globex", NEWS, none, false, null));
    }

    @Test
    void acrossOrganisationsSubAndPubAreSeparateExposures() {
        LinkSnapshot subOnly = link(LinkState.ACTIVE, List.of(new Exposure(ExposureKind.SUB, "news/*")), OPEN, OPEN);
        assertEquals(Optional.empty(), TopicAccess.subscribeRefusal("acme", NEWS, subOnly));
        assertEquals(Optional.of("no active link lets acme publish to topic:globex/news/today"),
                TopicAccess.publishRefusal("acme", NEWS, subOnly, true, "127.0.0.1"));
        LinkSnapshot pubOnly = link(LinkState.ACTIVE, List.of(new Exposure(ExposureKind.PUB, "*")), OPEN, OPEN);
        assertEquals(Optional.empty(), TopicAccess.publishRefusal("acme", NEWS, pubOnly, false, "127.0.0.1"));
        assertTrue(TopicAccess.subscribeRefusal("acme", NEWS, pubOnly).isPresent());
    }

    @Test
    void fanOutChecksTheLinkAgainAndTheSubscribersRules() {
        List<Exposure> sub = List.of(new Exposure(ExposureKind.SUB, "news/today"));
        assertEquals(Optional.empty(), TopicAccess.deliveryRefusal("acme", NEWS, link(LinkState.ACTIVE, sub, OPEN, OPEN), false, "127.0.0.1"));
        assertTrue(TopicAccess.deliveryRefusal("acme", NEWS, link(LinkState.REVOKED, sub, OPEN, OPEN), false, "127.0.0.1").isPresent());
        assertTrue(TopicAccess.deliveryRefusal("acme", NEWS, link(LinkState.ACTIVE, List.of(), OPEN, OPEN), false, null).isPresent(),
                "an exposure removed after subscribing stops the events");
        assertEquals(Optional.of("acme takes only signed messages from globex"),
                TopicAccess.deliveryRefusal("acme", NEWS, link(LinkState.ACTIVE, sub, LinkRules.DEFAULT, OPEN), false, null));
    }

    @Test
    void publishingAcrossPassesTheTopicOrganisationsRules() {
        LinkSnapshot l = link(LinkState.ACTIVE, List.of(new Exposure(ExposureKind.PUB, "news/*")), OPEN,
                new LinkRules(false, IpAllowList.parse("10.0.0.0/8")));
        assertTrue(TopicAccess.publishRefusal("acme", NEWS, l, true, "127.0.0.1").isPresent());
        assertEquals(Optional.empty(), TopicAccess.publishRefusal("acme", NEWS, l, true, "10.2.3.4"));
    }
}
