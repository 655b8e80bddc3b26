package org.switchboard.redsyn.directory;

import jakarta.enterprise.context.ApplicationScoped;

/** Until organisation links exist: nothing crosses organisations. */
@ApplicationScoped
public class NoLinks implements LinkCheck {

    @Override
    public boolean maySend(String fromOrg, String toOrg, String toAgentPath) {
        return false;
    }

    @Override
    public boolean mayView(String viewerOrg, String org, String agentPath) {
        return false;
    }
}
