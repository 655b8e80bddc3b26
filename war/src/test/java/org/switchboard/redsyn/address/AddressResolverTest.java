package org.switchboard.redsyn.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AddressResolverTest {

    private final Address sender = Address.parse("acme/dev/joel/reviewer#s4");

    @Test
    void oneNameIsTheSendersOwnAgent() {
        assertEquals("acme/dev/joel/close", AddressResolver.resolve("close", sender).toString());
    }

    @Test
    void twoNamesAreInTheSendersTeam() {
        assertEquals("acme/dev/ana/close", AddressResolver.resolve("ana/close", sender).toString());
    }

    @Test
    void threeNamesAreInTheSendersOrganisation() {
        assertEquals("acme/finance/ana/close", AddressResolver.resolve("finance/ana/close", sender).toString());
    }

    @Test
    void fullAddressesCrossOrganisationsAsIs() {
        assertEquals("globex/erp/bob/billing", AddressResolver.resolve("globex/erp/bob/billing", sender).toString());
    }

    @Test
    void sessionPartIsKeptOnShortForms() {
        assertEquals("acme/dev/ana/close#s9", AddressResolver.resolve("ana/close#s9", sender).toString());
        assertTrue(AddressResolver.resolve("close#new", sender).wantsNewSession());
    }

    @Test
    void topicsAndBadFormsAreRefused() {
        assertTrue(AddressResolver.isTopic("topic:acme/finance/invoices"));
        assertThrows(AddressException.class, () -> AddressResolver.resolve("topic:acme/finance/invoices", sender));
        assertThrows(AddressException.class, () -> AddressResolver.resolve("a/b/c/d/e", sender));
        assertThrows(AddressException.class, () -> AddressResolver.resolve("", sender));
        assertThrows(AddressException.class, () -> AddressResolver.resolve("Bad", sender));
    }
}
