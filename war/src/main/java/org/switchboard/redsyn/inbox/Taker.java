package org.switchboard.redsyn.inbox;

/** The take of one poll (its agent, node, lease and filter fixed), and the way back for a lease nobody received. */
interface Taker {

    /** Leases what is waiting now. */
    Taken take();

    /** Returns a lease whose poll could not deliver it: the messages are takeable again at once, no attempt counted. */
    void giveBack(Taken taken);
}
