package org.switchboard.redsyn.directory;

import org.switchboard.redsyn.address.Address;

/** What the send and take paths need to know about an agent. */
public record AgentInfo(long id, Address address, long ownerPersonId, Policy policy) {

    public String org() {
        return address.org();
    }

    public String team() {
        return address.team();
    }
}
