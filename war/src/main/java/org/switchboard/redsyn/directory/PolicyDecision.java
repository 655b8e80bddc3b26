package org.switchboard.redsyn.directory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Names;

/** Decides whether an agent takes a request, before the relay stores it. */
public final class PolicyDecision {

    private static final Pattern ENTRY = Pattern.compile("org|org:" + Names.REGEX + "|team:" + Names.REGEX + "|" + Names.REGEX);

    /**
     * Who sends, as seen from the receiving agent's organisation.
     *
     * @param owner   the sender is the person who owns the receiving agent
     * @param handle  the sender's handle in the agent's organisation, null when not a member
     * @param teams   the sender's teams in the agent's organisation
     * @param org     the organisation of the sending agent
     */
    public record Sender(boolean owner, String handle, Set<String> teams, String org) {
    }

    private PolicyDecision() {
    }

    /** Refuses a policy that cannot be honoured (422): bad allow entries, unknown trust, full trust without allow. */
    public static void validate(Policy policy) {
        for (String entry : policy.allow()) {
            if (entry == null || !ENTRY.matcher(entry).matches()) {
                throw RedsynException.unprocessable("allow entry '" + entry
                        + "' must be a handle, team:<team>, org or org:<org>");
            }
        }
        if (!"none".equals(policy.trust()) && !"full".equals(policy.trust())) {
            throw RedsynException.unprocessable("trust must be none or full");
        }
        if (policy.fullTrust() && policy.allow().isEmpty()) {
            throw RedsynException.unprocessable("trust full needs an allow list");
        }
    }

    /**
     * Why {@code agent} refuses this request, or empty when it takes it.
     *
     * @param agent     full address of the receiving agent (for the wording)
     * @param agentOrg  its organisation
     * @param agentTeam its team
     */
    public static Optional<String> refusal(Policy policy, String agent, String agentOrg, String agentTeam,
                                           Sender sender, boolean signed, boolean encrypted) {
        if (!sender.owner() && !allowed(policy, agentOrg, agentTeam, sender)) {
            return Optional.of(agent + " takes requests only from " + describe(policy, agentTeam));
        }
        if ((policy.fullTrust() || policy.signedOnly()) && !signed) {
            return Optional.of(agent + " takes only signed requests");
        }
        if (policy.encryptedOnly() && !encrypted) {
            return Optional.of(agent + " takes only encrypted requests");
        }
        return Optional.empty();
    }

    private static boolean allowed(Policy policy, String agentOrg, String agentTeam, Sender sender) {
        boolean member = sender.handle() != null;
        if (policy.allow().isEmpty()) {
            return member && sender.teams().contains(agentTeam);
        }
        for (String entry : policy.allow()) {
            if (entry.equals("org")) {
                if (member) {
                    return true;
                }
            } else if (entry.startsWith("org:")) {
                if (entry.substring(4).equals(sender.org())) {
                    return true;
                }
            } else if (entry.startsWith("team:")) {
                if (member && sender.teams().contains(entry.substring(5))) {
                    return true;
                }
            } else if (member && entry.equals(sender.handle())) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Policy policy, String agentTeam) {
        if (policy.allow().isEmpty()) {
            return "team " + agentTeam;
        }
        List<String> parts = new ArrayList<>();
        for (String entry : policy.allow()) {
            if (entry.equals("org")) {
                parts.add("its organisation");
            } else if (entry.startsWith("org:")) {
                parts.add("org " + entry.substring(4));
            } else if (entry.startsWith("team:")) {
                parts.add("team " + entry.substring(5));
            } else {
                parts.add(entry);
            }
        }
        return String.join(", ", parts);
    }
}
