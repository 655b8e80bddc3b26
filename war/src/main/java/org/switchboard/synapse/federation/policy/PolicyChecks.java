package org.switchboard.synapse.federation.policy;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.switchboard.synapse.security.PolicyFileException;

/** Shared field rules of the federation policy files (grammar of synapse-advanced §4.1, §4.2, §5.1). */
public final class PolicyChecks {

    /** The HUB_ID grammar of §4.1. */
    public static final Pattern HUB_ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");
    /** A certificate pin: {@code sha256:} and 64 lowercase hex digits. */
    public static final Pattern CERT_PIN = Pattern.compile("^sha256:[0-9a-f]{64}$");
    /** A lowercase SHA-256 digest. */
    public static final Pattern DIGEST = Pattern.compile("^[0-9a-f]{64}$");

    private PolicyChecks() {
    }

    /** True when {@code id} follows the HUB_ID grammar. */
    public static boolean hubId(String id) {
        return id != null && HUB_ID.matcher(id).matches();
    }

    /**
     * True for a project namespace a grant may name: 1–128 characters, no {@code /} or {@code @}, no
     * wildcard ({@code *}, {@code ?}, {@code [}), no surrounding whitespace, no control character.
     */
    public static boolean namespace(String ns) {
        if (ns == null || ns.isEmpty() || ns.length() > 128 || !ns.equals(ns.strip())) {
            return false;
        }
        for (int i = 0; i < ns.length(); i++) {
            char c = ns.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '/' || c == '@' || c == '*' || c == '?' || c == '[' || c == ',') {
                return false;
            }
        }
        return true;
    }

    static void onlyKeys(String key, JsonObject object, Set<String> allowed, String where) {
        for (String member : object.keySet()) {
            if (!allowed.contains(member)) {
                throw new PolicyFileException(key, where + ": unknown member '" + member + "'");
            }
        }
    }

    static String requiredString(String key, JsonObject object, String member, String where) {
        JsonValue value = object.get(member);
        if (!(value instanceof JsonString s)) {
            throw new PolicyFileException(key, where + ": '" + member + "' must be a string");
        }
        return s.getString();
    }

    /** An optional finite expiry (Unix seconds); null when absent. */
    static Double expiry(String key, JsonObject object, String where) {
        JsonValue value = object.get("expires_at");
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonNumber n) || !Double.isFinite(n.doubleValue())) {
            throw new PolicyFileException(key, where + ": 'expires_at' must be a finite number");
        }
        return n.doubleValue();
    }

    /**
     * The {@code grants} of a version-1 policy document: the root holds only {@code rootKeys}, at most
     * {@code maxGrants} grants, each an object holding only {@code grantKeys}; in file order.
     */
    static List<JsonObject> grantObjects(String key, JsonObject root, Set<String> rootKeys,
                                                   Set<String> grantKeys, int maxGrants) {
        onlyKeys(key, root, rootKeys, "policy");
        version1(key, root);
        if (!(root.get("grants") instanceof JsonArray array)) {
            throw new PolicyFileException(key, "'grants' must be an array");
        }
        if (array.size() > maxGrants) {
            throw new PolicyFileException(key, "more than " + maxGrants + " grants");
        }
        List<JsonObject> grants = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String where = "grant " + i;
            if (!(array.get(i) instanceof JsonObject g)) {
                throw new PolicyFileException(key, where + ": must be an object");
            }
            onlyKeys(key, g, grantKeys, where);
            grants.add(g);
        }
        return grants;
    }

    static void version1(String key, JsonObject root) {
        JsonValue version = root.get("version");
        if (!(version instanceof JsonNumber n) || !n.isIntegral() || n.longValue() != 1) {
            throw new PolicyFileException(key, "'version' must be the integer 1");
        }
    }
}
