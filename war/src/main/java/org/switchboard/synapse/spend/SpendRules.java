package org.switchboard.synapse.spend;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shapes of the §7.4 spend documents (this hub's choice where the spec is [NAMED];
 * synapse-conformance.md): exact key sets, token ids, bounded references, positive exact decimals.
 */
final class SpendRules {

    private static final Pattern TOKEN = Pattern.compile("^[A-Za-z0-9._:/-]{1,128}$");
    private static final Set<String> RESERVE = Set.of("pool_id", "seat", "task", "operation", "key", "amount", "provenance");
    private static final Set<String> SETTLE = Set.of("pool_id", "reservation_id", "usage_ref", "amount", "provenance", "final");
    private static final Set<String> QUERY = Set.of("pool_id", "seat", "task", "operation", "key");

    record Reserve(String poolId, String seat, String task, String operation, String key, BigDecimal amount,
                   String provenance) {
    }

    record Settle(String poolId, String reservationId, String usageRef, BigDecimal amount, String provenance, boolean fin) {
    }

    record Query(String poolId, String seat, String task, String operation, String key) {
    }

    private SpendRules() {
    }

    static boolean token(String s) {
        return s != null && TOKEN.matcher(s).matches();
    }

    /** A positive exact decimal (a JSON number or a decimal string) of at most 40 characters and 18 decimals; else null. */
    static BigDecimal amount(JsonValue value) {
        String text;
        if (value instanceof JsonNumber n) {
            text = n.toString();
        } else if (value instanceof JsonString s) {
            text = s.getString();
        } else {
            return null;
        }
        if (text.length() > 40 || !text.matches("^[0-9]+(\\.[0-9]+)?$")) {
            return null;
        }
        BigDecimal d = new BigDecimal(text);
        return d.signum() > 0 && d.scale() <= 18 ? d : null;
    }

    static Reserve reserve(JsonObject o) {
        if (!o.keySet().equals(RESERVE)) {
            return null;
        }
        BigDecimal amount = amount(o.get("amount"));
        String provenance = o.get("provenance") instanceof JsonString p && p.getString().length() <= 256
                && !p.getString().isEmpty() ? p.getString() : null;
        if (!token(s(o, "pool_id")) || !token(s(o, "seat")) || !token(s(o, "task")) || !token(s(o, "operation"))
                || !token(s(o, "key")) || amount == null || provenance == null) {
            return null;
        }
        return new Reserve(s(o, "pool_id"), s(o, "seat"), s(o, "task"), s(o, "operation"), s(o, "key"), amount, provenance);
    }

    static Settle settle(JsonObject o) {
        if (!o.keySet().equals(SETTLE)) {
            return null;
        }
        BigDecimal amount = amount(o.get("amount"));
        JsonValue fin = o.get("final");
        String provenance = o.get("provenance") instanceof JsonString p && p.getString().length() <= 256
                && !p.getString().isEmpty() ? p.getString() : null;
        if (!token(s(o, "pool_id")) || !token(s(o, "reservation_id")) || !token(s(o, "usage_ref")) || amount == null
                || provenance == null || (fin != JsonValue.TRUE && fin != JsonValue.FALSE)) {
            return null;
        }
        return new Settle(s(o, "pool_id"), s(o, "reservation_id"), s(o, "usage_ref"), amount, provenance, fin == JsonValue.TRUE);
    }

    static Query query(JsonObject o) {
        if (!o.keySet().equals(QUERY) || !token(s(o, "pool_id")) || !token(s(o, "seat")) || !token(s(o, "task"))
                || !token(s(o, "operation")) || !token(s(o, "key"))) {
            return null;
        }
        return new Query(s(o, "pool_id"), s(o, "seat"), s(o, "task"), s(o, "operation"), s(o, "key"));
    }

    private static String s(JsonObject o, String key) {
        return o.get(key) instanceof JsonString v ? v.getString() : null;
    }
}
