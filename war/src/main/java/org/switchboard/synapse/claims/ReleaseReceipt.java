package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Close-out evidence of a {@code release} (synapse-core §9.7, synapse-advanced §10.1) and its
 * advisory epistemic grading.
 *
 * @param lists      the six evidence lists in wire order (each ≤ 50 non-empty items of ≤ 500 chars)
 * @param confidence confidence as sent (string ≤ 500 chars or number), or null
 * @param freshness  {@code freshness_seconds} clamped ≥ 0, or null when not numeric
 */
public record ReleaseReceipt(Map<String, List<String>> lists, JsonValue confidence, Double freshness) {

    /** The evidence list fields, in receipt order. */
    public static final List<String> LIST_FIELDS = List.of("evidence", "artifacts", "known_failures",
            "changed_files", "generated_artifacts", "approvals");
    /** Items kept per list. */
    public static final int MAX_ITEMS = 50;
    /** Characters kept per item (and of a string confidence). */
    public static final int MAX_ITEM_CHARS = 500;
    /** Freshness beyond this many seconds grades {@code stale}. */
    public static final double STALE_AFTER_SECONDS = 3600;

    /**
     * Reads the receipt fields of a release frame. [DESIGN] Out-of-bounds input is clamped, not
     * refused: a lone string becomes a one-item list, non-strings and blank items are dropped,
     * lists keep their first 50 items and items their first 500 characters.
     */
    public static ReleaseReceipt from(JsonObject frame) {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String field : LIST_FIELDS) {
            lists.put(field, list(frame.get(field)));
        }
        JsonValue confidence = null;
        JsonValue c = frame.get("confidence");
        if (c instanceof JsonString s) {
            confidence = PROVIDER.createValue(cut(s.getString()));
        } else if (c instanceof JsonNumber) {
            confidence = c;
        }
        Double freshness = null;
        if (frame.get("freshness_seconds") instanceof JsonNumber n && Double.isFinite(n.doubleValue())) {
            freshness = Math.max(0.0, n.doubleValue());
        }
        return new ReleaseReceipt(lists, confidence, freshness);
    }

    private static List<String> list(JsonValue v) {
        List<String> out = new ArrayList<>();
        if (v instanceof JsonString s) {
            add(out, s.getString());
        } else if (v != null && v.getValueType() == JsonValue.ValueType.ARRAY) {
            for (JsonValue item : v.asJsonArray()) {
                if (item instanceof JsonString s) {
                    add(out, s.getString());
                }
                if (out.size() == MAX_ITEMS) {
                    break;
                }
            }
        }
        return List.copyOf(out);
    }

    private static void add(List<String> out, String item) {
        if (!item.isBlank()) {
            out.add(cut(item));
        }
    }

    private static String cut(String s) {
        return s.length() <= MAX_ITEM_CHARS ? s : s.substring(0, MAX_ITEM_CHARS);
    }

    /** Whether the release also posts an {@code assessment} progress note. */
    public boolean warrantsNote() {
        return lists.values().stream().anyMatch(l -> !l.isEmpty()) || confidence != null || freshness != null;
    }

    /** Advisory grade: degraded, unsupported, needs_freshness, stale or unverified (first that applies). */
    public String epistemicStatus() {
        if (!lists.get("known_failures").isEmpty()) {
            return "degraded";
        }
        if (!positiveEvidence()) {
            return "unsupported";
        }
        if (freshness == null) {
            return "needs_freshness";
        }
        return freshness > STALE_AFTER_SECONDS ? "stale" : "unverified";
    }

    /** One short reason per check, in evaluation order (failures, evidence, freshness). */
    public List<String> epistemicReasons() {
        List<String> reasons = new ArrayList<>();
        if (!lists.get("known_failures").isEmpty()) {
            reasons.add("known failures reported");
        }
        reasons.add(positiveEvidence() ? "positive evidence present" : "no positive evidence");
        if (freshness == null) {
            reasons.add("no numeric freshness");
        } else if (freshness > STALE_AFTER_SECONDS) {
            reasons.add("evidence older than 3600 seconds");
        } else {
            reasons.add("fresh evidence present but unverified");
        }
        return reasons;
    }

    private boolean positiveEvidence() {
        return !lists.get("evidence").isEmpty() || !lists.get("artifacts").isEmpty()
                || !lists.get("changed_files").isEmpty() || !lists.get("generated_artifacts").isEmpty()
                || !lists.get("approvals").isEmpty();
    }

    /** The {@code receipt} object of {@code release_granted}. */
    public JsonObject toJson(String taskId, String owner) {
        JsonObjectBuilder b = PROVIDER.createObjectBuilder().add("task_id", taskId).add("owner", owner).add("released", true);
        for (String field : LIST_FIELDS) {
            JsonArrayBuilder a = PROVIDER.createArrayBuilder();
            lists.get(field).forEach(a::add);
            b.add(field, a);
        }
        b.add("epistemic_status", epistemicStatus());
        JsonArrayBuilder r = PROVIDER.createArrayBuilder();
        epistemicReasons().forEach(r::add);
        b.add("epistemic_reasons", r);
        if (confidence != null) {
            b.add("confidence", confidence);
        }
        if (freshness != null) {
            b.add("freshness_seconds", freshness);
        }
        return b.build();
    }

    /** Text of the {@code assessment} note: non-empty lists, confidence, freshness, then the grade. */
    public String noteText() {
        StringBuilder sb = new StringBuilder("release receipt: ");
        for (String field : LIST_FIELDS) {
            List<String> items = lists.get(field);
            if (!items.isEmpty()) {
                sb.append(field).append('=').append(String.join(", ", items)).append("; ");
            }
        }
        if (confidence != null) {
            sb.append("confidence=").append(confidence instanceof JsonString s ? s.getString() : confidence.toString()).append("; ");
        }
        if (freshness != null) {
            sb.append("freshness_seconds=").append(freshness).append("; ");
        }
        sb.append("epistemic_status=").append(epistemicStatus()).append("; ");
        sb.append("epistemic_reasons=").append(String.join(", ", epistemicReasons()));
        return sb.toString();
    }
}
