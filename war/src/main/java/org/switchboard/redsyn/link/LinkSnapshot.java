package org.switchboard.redsyn.link;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A link between two organisations as the send, view and fan-out paths check it: its state, what
 * each side exposes to the other and what each side lets in. Nothing crosses without an active link.
 *
 * @param exposures by exposing organisation
 * @param rules     by receiving organisation: what it lets in from the other
 */
public record LinkSnapshot(String orgA, String orgB, LinkState state, Map<String, List<Exposure>> exposures,
                           Map<String, LinkRules> rules) {

    /** No link at all between two organisations. */
    public static LinkSnapshot none(String orgA, String orgB) {
        return new LinkSnapshot(orgA, orgB, null, Map.of(), Map.of());
    }

    public LinkSnapshot {
        exposures = Map.copyOf(exposures);
        rules = Map.copyOf(rules);
    }

    /** True while both sides agreed and neither revoked. */
    public boolean active() {
        return state == LinkState.ACTIVE;
    }

    /**
     * True when the link is active and {@code exposingOrg} exposes {@code path} (relative to itself:
     * {@code team/user/agent} or {@code team/name}) with this kind to the other side.
     */
    public boolean exposes(String exposingOrg, ExposureKind kind, String path) {
        if (!active()) {
            return false;
        }
        for (Exposure e : exposures.getOrDefault(exposingOrg, List.of())) {
            if (e.kind() == kind && ExposureKind.covers(e.pattern(), path)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a message from the other side may not enter {@code intoOrg}, or empty when it may: the link
     * must be active and the message must pass {@code intoOrg}'s rules.
     *
     * @param signed   the message carries a verified signature
     * @param clientIp the address the message came from (null when unknown)
     */
    public Optional<String> entryRefusal(String intoOrg, boolean signed, String clientIp) {
        String fromOrg = intoOrg.equals(orgA) ? orgB : orgA;
        if (!active()) {
            return Optional.of("no active link between " + fromOrg + " and " + intoOrg);
        }
        LinkRules r = rules.getOrDefault(intoOrg, LinkRules.DEFAULT);
        if (r.signedOnly() && !signed) {
            return Optional.of(intoOrg + " takes only signed messages from " + fromOrg);
        }
        if (!r.ips().admits(clientIp)) {
            return Optional.of(intoOrg + " takes messages from " + fromOrg + " only from its listed addresses");
        }
        return Optional.empty();
    }

    /** The path of a full address inside its organisation: {@code acme/finance/ana/close} → {@code finance/ana/close}. */
    public static String inside(String fullPath) {
        int slash = fullPath.indexOf('/');
        return slash < 0 ? fullPath : fullPath.substring(slash + 1);
    }

    /** The two handles in the order links are stored: the lower one first. */
    public static String[] pair(String x, String y) {
        return x.compareTo(y) <= 0 ? new String[] {x, y} : new String[] {y, x};
    }
}
