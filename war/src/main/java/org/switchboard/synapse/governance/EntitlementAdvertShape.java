package org.switchboard.synapse.governance;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The exact shape of an {@code entitlement_advert}'s {@code advert} (synapse-advanced §7.3): the key
 * set is closed (an extra or missing key is refused) and every field has its rule. Stateless.
 */
public final class EntitlementAdvertShape {

    static final Set<String> KEYS = Set.of("schema", "pool_alias", "unit", "resource_kind", "capabilities",
            "data_classes", "eligible_projects", "account_usable", "as_of", "windows");
    static final Set<String> WINDOW_KEYS = Set.of("window_ref", "ends_at", "current", "remaining_bucket",
            "balance_evidence", "observation_age_seconds", "forecast_state", "confidence");
    static final Set<String> REMAINING = Set.of("depleted", "<10%", "10-50%", ">50%", "unknown");
    static final Set<String> EVIDENCE = Set.of("observed", "estimated", "unknown", "outside_window");
    static final Set<String> FORECAST = Set.of("insufficient_data", "depleted", "quiet", "depleting");
    static final Set<String> CONFIDENCE = Set.of("official", "operator", "inferred");
    static final int MAX_LIST = 32;
    static final int MAX_WINDOWS = 16;
    static final int MAX_TIME_CHARS = 40;

    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._:/-]{1,64}");
    private static final Pattern WINDOW_REF = Pattern.compile("[0-9a-f]{16}");

    private EntitlementAdvertShape() {
    }

    /** The pool alias when {@code advert} holds a string one (for the ACL target), else "". */
    public static String poolAlias(JsonValue advert) {
        return advert instanceof JsonObject o && o.get("pool_alias") instanceof JsonString s ? s.getString() : "";
    }

    /** Null when {@code advert} has the exact shape; else the first fault, naming the field (never its value). */
    public static String problem(JsonValue advert) {
        if (!(advert instanceof JsonObject a)) {
            return "advert must be an object";
        }
        String keys = exactKeys("advert", a, KEYS);
        if (keys != null) {
            return keys;
        }
        if (!(a.get("schema") instanceof JsonNumber n) || !n.isIntegral() || n.bigIntegerValue().intValue() != 1
                || n.bigIntegerValue().bitLength() > 31) {
            return "advert.schema must be 1";
        }
        if (!matches(a.get("pool_alias"), ALIAS)) {
            return "advert.pool_alias must match [A-Za-z0-9._-]{1,64}";
        }
        if (!matches(a.get("unit"), TOKEN)) {
            return "advert.unit must be a token [A-Za-z0-9._:/-]{1,64}";
        }
        JsonValue kind = a.get("resource_kind");
        if (kind.getValueType() != JsonValue.ValueType.NULL && !matches(kind, TOKEN)) {
            return "advert.resource_kind must be a token or null";
        }
        for (String list : new String[] {"capabilities", "data_classes", "eligible_projects"}) {
            if (!tokens(a.get(list))) {
                return "advert." + list + " must be an array of at most " + MAX_LIST + " tokens";
            }
        }
        if (!isBoolean(a.get("account_usable"))) {
            return "advert.account_usable must be true or false";
        }
        if (!instant(a.get("as_of"))) {
            return "advert.as_of must be an ISO-8601 time with a UTC offset";
        }
        if (!(a.get("windows") instanceof JsonArray windows) || windows.size() > MAX_WINDOWS) {
            return "advert.windows must be an array of at most " + MAX_WINDOWS + " windows";
        }
        for (int i = 0; i < windows.size(); i++) {
            String fault = window("advert.windows[" + i + "]", windows.get(i));
            if (fault != null) {
                return fault;
            }
        }
        return null;
    }

    private static String window(String where, JsonValue value) {
        if (!(value instanceof JsonObject w)) {
            return where + " must be an object";
        }
        String keys = exactKeys(where, w, WINDOW_KEYS);
        if (keys != null) {
            return keys;
        }
        if (!matches(w.get("window_ref"), WINDOW_REF)) {
            return where + ".window_ref must be 16 lowercase hex characters";
        }
        if (!instant(w.get("ends_at"))) {
            return where + ".ends_at must be an ISO-8601 time with a UTC offset";
        }
        if (!isBoolean(w.get("current"))) {
            return where + ".current must be true or false";
        }
        if (!oneOf(w.get("remaining_bucket"), REMAINING)) {
            return where + ".remaining_bucket must be one of " + REMAINING;
        }
        if (!oneOf(w.get("balance_evidence"), EVIDENCE)) {
            return where + ".balance_evidence must be one of " + EVIDENCE;
        }
        JsonValue age = w.get("observation_age_seconds");
        if (age.getValueType() != JsonValue.ValueType.NULL
                && !(age instanceof JsonNumber n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0)) {
            return where + ".observation_age_seconds must be a non-negative number or null";
        }
        if (!oneOf(w.get("forecast_state"), FORECAST)) {
            return where + ".forecast_state must be one of " + FORECAST;
        }
        if (!oneOf(w.get("confidence"), CONFIDENCE)) {
            return where + ".confidence must be one of " + CONFIDENCE;
        }
        return null;
    }

    private static String exactKeys(String where, JsonObject o, Set<String> expected) {
        for (String key : o.keySet()) {
            if (!expected.contains(key)) {
                return where + " has an unexpected key";
            }
        }
        for (String key : expected) {
            if (!o.containsKey(key)) {
                return where + " is missing " + key;
            }
        }
        return null;
    }

    private static boolean matches(JsonValue v, Pattern pattern) {
        return v instanceof JsonString s && pattern.matcher(s.getString()).matches();
    }

    private static boolean oneOf(JsonValue v, Set<String> allowed) {
        return v instanceof JsonString s && allowed.contains(s.getString());
    }

    private static boolean isBoolean(JsonValue v) {
        return v == JsonValue.TRUE || v == JsonValue.FALSE;
    }

    private static boolean tokens(JsonValue v) {
        if (!(v instanceof JsonArray array) || array.size() > MAX_LIST) {
            return false;
        }
        for (JsonValue item : array) {
            if (!matches(item, TOKEN)) {
                return false;
            }
        }
        return true;
    }

    /** ISO-8601 date-time with an explicit offset ({@code Z} or {@code ±hh:mm}), at most 40 characters. */
    static boolean instant(JsonValue v) {
        if (!(v instanceof JsonString s) || s.getString().length() > MAX_TIME_CHARS) {
            return false;
        }
        try {
            OffsetDateTime.parse(s.getString());
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
