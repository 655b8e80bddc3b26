package org.switchboard.redsyn.link;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.switchboard.redsyn.directory.LinkCheck;

/** The relay's {@link LinkCheck}: organisation links, their exposures and their rules, as stored. */
@ApplicationScoped
public class RelayLinks implements LinkCheck {

    @Inject
    LinkService links;

    /** The current HTTP request, for the address the {@code ips} rule checks. */
    @Inject
    HttpServletRequest request;

    @Override
    public boolean maySend(String fromOrg, String toOrg, String toAgentPath) {
        return links.snapshot(fromOrg, toOrg).exposes(toOrg, ExposureKind.AGENT, LinkSnapshot.inside(toAgentPath));
    }

    @Override
    public boolean mayView(String viewerOrg, String org, String agentPath) {
        return links.snapshot(viewerOrg, org).exposes(org, ExposureKind.AGENT, LinkSnapshot.inside(agentPath));
    }

    @Override
    public Optional<String> sendRefusal(String fromOrg, String toOrg, String toAgentPath, boolean signed) {
        LinkSnapshot link = links.snapshot(fromOrg, toOrg);
        if (!link.exposes(toOrg, ExposureKind.AGENT, LinkSnapshot.inside(toAgentPath))) {
            return Optional.of("no active link lets " + fromOrg + " write to " + toAgentPath);
        }
        return link.entryRefusal(toOrg, signed, clientAddress());
    }

    @Override
    public List<String> linkedOrgs(String org) {
        return links.activePartners(org);
    }

    @Override
    public boolean linked(String orgA, String orgB) {
        return links.snapshot(orgA, orgB).active();
    }

    /** The address of the calling client, or null outside an HTTP request. */
    public String clientAddress() {
        try {
            return request.getRemoteAddr();
        } catch (ContextNotActiveException | IllegalStateException e) {
            return null;
        }
    }
}
