package org.switchboard.synapse.federation.policy;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The receiving side's multi-hub serving policy ({@code hub.multihub-policy}, synapse-advanced §4.2
 * with the federation store folded into the grants): which peer hub may address which local project
 * namespace with which verbs. An empty policy (no file) grants nothing, so such a hub accepts no forward.
 */
public final class MultihubPolicy {

    /** The configuration key named in every refusal. */
    public static final String KEY = "hub.multihub-policy";
    /** Verbs a grant may carry: {@code message} (forwards), {@code read} (peer attachment reads), {@code spend} (§7.4). */
    public static final Set<String> VERBS = Set.of("message", "read", "spend");
    /** Most grants one file may hold. */
    public static final int MAX_GRANTS = 256;

    private static final Set<String> ROOT_KEYS = Set.of("version", "grants");
    private static final Set<String> GRANT_KEYS = Set.of("sender", "namespace", "verbs", "cert_pin", "expires_at", "revoked");
    private static final MultihubPolicy NONE = new MultihubPolicy(List.of());

    private final List<PeerGrant> grants;

    private MultihubPolicy(List<PeerGrant> grants) {
        this.grants = List.copyOf(grants);
    }

    /** The policy that grants nothing (no file configured). */
    public static MultihubPolicy none() {
        return NONE;
    }

    /** Loads and validates the file; any fault is a {@link PolicyFileException} naming {@link #KEY}. */
    public static MultihubPolicy load(Path path) {
        return parse(StrictPolicyJson.read(KEY, path));
    }

    /** Validates an already-read document (duplicate members must have been refused by the reader). */
    public static MultihubPolicy parse(JsonObject root) {
        List<JsonObject> grantObjects = PolicyChecks.grantObjects(KEY, root, ROOT_KEYS, GRANT_KEYS, MAX_GRANTS);
        List<PeerGrant> grants = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // one certificate per peer: a pin on some grants of a sender and not on others (or two pins) would
        // let the weaker proof reach the namespaces the stronger one guards
        java.util.Map<String, java.util.Optional<String>> pinBySender = new java.util.HashMap<>();
        for (int i = 0; i < grantObjects.size(); i++) {
            String where = "grant " + i;
            JsonObject g = grantObjects.get(i);
            String sender = PolicyChecks.requiredString(KEY, g, "sender", where);
            if (!PolicyChecks.hubId(sender)) {
                throw new PolicyFileException(KEY, where + ": 'sender' is not a hub id");
            }
            String namespace = PolicyChecks.requiredString(KEY, g, "namespace", where);
            if (!PolicyChecks.namespace(namespace)) {
                throw new PolicyFileException(KEY, where + ": 'namespace' must be one project name (no wildcard)");
            }
            if (!(g.get("verbs") instanceof JsonArray verbArray)) {
                throw new PolicyFileException(KEY, where + ": 'verbs' must be an array");
            }
            Set<String> verbs = new LinkedHashSet<>();
            for (JsonValue v : verbArray) {
                if (!(v instanceof JsonString s) || !VERBS.contains(s.getString())) {
                    throw new PolicyFileException(KEY, where + ": verbs are message, read or spend");
                }
                if (!verbs.add(s.getString())) {
                    throw new PolicyFileException(KEY, where + ": a verb is listed twice");
                }
            }
            String pin = null;
            if (g.containsKey("cert_pin")) {
                pin = PolicyChecks.requiredString(KEY, g, "cert_pin", where);
                if (!PolicyChecks.CERT_PIN.matcher(pin).matches()) {
                    throw new PolicyFileException(KEY, where + ": 'cert_pin' must be sha256:<64 lowercase hex>");
                }
            }
            Double expires = PolicyChecks.expiry(KEY, g, where);
            boolean revoked = false;
            if (g.containsKey("revoked")) {
                JsonValue r = g.get("revoked");
                if (r != JsonValue.TRUE && r != JsonValue.FALSE) {
                    throw new PolicyFileException(KEY, where + ": 'revoked' must be a boolean");
                }
                revoked = r == JsonValue.TRUE;
            }
            java.util.Optional<String> firstPin = pinBySender.putIfAbsent(sender, java.util.Optional.ofNullable(pin));
            if (firstPin != null && !firstPin.equals(java.util.Optional.ofNullable(pin))) {
                throw new PolicyFileException(KEY, where + ": every grant of sender '" + sender
                        + "' must name the same cert_pin (or none)");
            }
            if (!seen.add(sender + "\u0000" + namespace)) {
                throw new PolicyFileException(KEY, where + ": a second grant for the same sender and namespace");
            }
            grants.add(new PeerGrant(sender, namespace, Set.copyOf(verbs), pin, expires, revoked));
        }
        return new MultihubPolicy(grants);
    }

    /** Every grant, in file order. */
    public List<PeerGrant> grants() {
        return grants;
    }

    /** True when {@code sender} holds at least one live grant at {@code now}. */
    public boolean authorises(String sender, double now) {
        return grants.stream().anyMatch(g -> g.sender().equals(sender) && g.live(now));
    }

    /** True when {@code sender} holds a live grant carrying {@code verb} for any namespace. */
    public boolean authorisesVerb(String sender, String verb, double now) {
        return grants.stream().anyMatch(g -> g.sender().equals(sender) && g.live(now) && g.verbs().contains(verb));
    }

    /** True when {@code sender} holds a live grant for {@code namespace} that carries {@code verb}. */
    public boolean grants(String sender, String namespace, String verb, double now) {
        return grants.stream().anyMatch(g -> g.sender().equals(sender) && g.namespace().equals(namespace)
                && g.live(now) && g.verbs().contains(verb));
    }

    /** The namespaces {@code sender} may address at {@code now} (any live grant), sorted. */
    public Set<String> namespaces(String sender, double now) {
        Set<String> out = new TreeSet<>();
        for (PeerGrant g : grants) {
            if (g.sender().equals(sender) && g.live(now)) {
                out.add(g.namespace());
            }
        }
        return out;
    }

    /** The certificate pins the live grants of {@code sender} name (empty: none bound). */
    public Set<String> certPins(String sender, double now) {
        Set<String> out = new TreeSet<>();
        for (PeerGrant g : grants) {
            if (g.sender().equals(sender) && g.live(now) && g.certPin() != null) {
                out.add(g.certPin());
            }
        }
        return out;
    }
}
