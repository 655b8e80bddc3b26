package org.switchboard.redsyn.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IpAllowListTest {

    @Test
    void emptyAdmitsAnyAddress() {
        IpAllowList any = IpAllowList.parse(" ");
        assertTrue(any.any());
        assertTrue(any.admits("203.0.113.7"));
        assertTrue(any.admits(null));
        assertEquals("", any.text());
    }

    @Test
    void exactAddressesAsInTheDocument() {
        IpAllowList list = IpAllowList.parse("203.0.113.7, 198.51.100.2");
        assertTrue(list.admits("203.0.113.7"));
        assertTrue(list.admits("198.51.100.2"));
        assertFalse(list.admits("203.0.113.8"));
        assertFalse(list.admits("127.0.0.1"));
        assertFalse(list.admits(null), "an unknown address is not on a list");
        assertEquals("203.0.113.7,198.51.100.2", list.text());
    }

    @Test
    void cidrBlocksIpv4AndIpv6() {
        IpAllowList list = IpAllowList.parse("127.0.0.1/32,10.1.0.0/16,2001:db8::/32");
        assertTrue(list.admits("127.0.0.1"));
        assertFalse(list.admits("127.0.0.2"));
        assertTrue(list.admits("10.1.255.3"));
        assertFalse(list.admits("10.2.0.1"));
        assertTrue(list.admits("2001:db8:1::5"));
        assertFalse(list.admits("2001:db9::5"));
        assertTrue(list.admits("::ffff:127.0.0.1"), "an IPv4-mapped address is its IPv4 address");
        assertTrue(IpAllowList.parse("10.0.0.0/9").admits("10.127.0.1"));
        assertFalse(IpAllowList.parse("10.0.0.0/9").admits("10.128.0.1"));
    }

    @Test
    void namesAndNonsenseAreRefusedWithoutLookingAnythingUp() {
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("example.com"));
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("localhost"));
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("300.1.1.1"));
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> IpAllowList.parse("1:2:3"));
    }
}
