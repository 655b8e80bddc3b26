package org.switchboard.redsyn.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.address.AddressException;

class TopicAddressTest {

    private static final Address ANA = Address.parse("acme/finance/ana/close#s4");

    @Test
    void fullAndShortFormsResolveFromTheAgent() {
        assertEquals("topic:globex/news/today", TopicAddress.resolve("topic:globex/news/today", ANA).toString());
        assertEquals("topic:acme/finance/invoices", TopicAddress.resolve("topic:finance/invoices", ANA).toString());
        assertEquals("topic:acme/finance/invoices", TopicAddress.resolve("topic:invoices", ANA).toString());
        assertEquals("topic:acme/ops/alerts", TopicAddress.resolve("ops/alerts", ANA).toString(), "the prefix may be left out");
        assertEquals("ops/alerts", TopicAddress.resolve("ops/alerts", ANA).inside());
    }

    @Test
    void badTopicsAreRefused() {
        assertThrows(AddressException.class, () -> TopicAddress.resolve("topic:a/b/c/d", ANA));
        assertThrows(AddressException.class, () -> TopicAddress.resolve("topic:Finance/x", ANA));
        assertThrows(AddressException.class, () -> TopicAddress.resolve("topic:", ANA));
        assertThrows(AddressException.class, () -> TopicAddress.resolve("topic:finance//x", ANA));
        assertThrows(AddressException.class, () -> TopicAddress.resolve(" ", ANA));
    }
}
