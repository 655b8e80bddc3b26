package org.switchboard.redsyn.link;

import java.util.Locale;

/** Where a link stands: proposed by one side, active once the other accepted, or revoked by either. */
public enum LinkState {
    PROPOSED, ACTIVE, REVOKED;

    /** The wire name. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
