package org.switchboard.synapse.claims;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Claim scope path rules (synapse-core §9.4): normalisation of declared paths and the
 * segment-prefix overlap test. Paths are literal; glob characters mean nothing. Stateless.
 */
public final class ScopePaths {

    /** Default cap on distinct declared paths before the scope widens to the whole tree. */
    public static final int DEFAULT_MAX_PATHS = 512;
    /** Longest accepted declared path, in characters. */
    public static final int MAX_PATH_LENGTH = 4096;
    /** The widened scope: the whole worktree. */
    public static final List<String> WHOLE_TREE = List.of("");

    private ScopePaths() {
    }

    /**
     * Normalises a claim's {@code paths} field: non-list ⇒ {@code []}; otherwise per §9.4, widening
     * to {@code [""]} on any absolute, {@code ..}, empty, over-long or non-printable path, on a
     * non-string entry [DESIGN: an unreadable entry must not narrow the scope], or beyond
     * {@code maxPaths} distinct paths.
     */
    public static List<String> normalise(JsonValue paths, int maxPaths) {
        if (paths == null || paths.getValueType() != JsonValue.ValueType.ARRAY) {
            return List.of();
        }
        JsonArray array = (JsonArray) paths;
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (JsonValue item : array) {
            if (item.getValueType() != JsonValue.ValueType.STRING) {
                return WHOLE_TREE;
            }
            String raw = ((JsonString) item).getString();
            if (raw.length() > MAX_PATH_LENGTH || !isPrintable(raw)) {
                return WHOLE_TREE;
            }
            String normal = normalisePath(raw);
            if (normal.isEmpty()) {
                return WHOLE_TREE;
            }
            distinct.add(normal);
        }
        if (distinct.size() > maxPaths) {
            return WHOLE_TREE;
        }
        return List.copyOf(distinct);
    }

    /** Normalises a list of Java strings (same rules). */
    public static List<String> normalise(List<String> paths, int maxPaths) {
        jakarta.json.JsonArrayBuilder b = PROVIDER.createArrayBuilder();
        paths.forEach(b::add);
        return normalise(b.build(), maxPaths);
    }

    /** One path: trim, {@code \}→{@code /}, drop empty and {@code .} segments; absolute or {@code ..} ⇒ {@code ""}. */
    public static String normalisePath(String raw) {
        String p = raw.strip().replace('\\', '/');
        if (p.startsWith("/")) {
            return "";
        }
        StringBuilder out = new StringBuilder(p.length());
        for (String segment : p.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                return "";
            }
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(segment);
        }
        return out.toString();
    }

    /** Whether a normalised scope covers the whole worktree ({@code []} or containing {@code ""}). */
    public static boolean isWholeTree(List<String> normalised) {
        return normalised.isEmpty() || normalised.contains("");
    }

    /** Two normalised paths overlap: equal, either is {@code ""}, or one is a segment prefix of the other. */
    public static boolean overlaps(String a, String b) {
        if (a.isEmpty() || b.isEmpty() || a.equals(b)) {
            return true;
        }
        if (a.length() < b.length()) {
            return b.startsWith(a) && b.charAt(a.length()) == '/';
        }
        return a.startsWith(b) && a.charAt(b.length()) == '/';
    }

    /** Unicode NFC. */
    public static String nfc(String s) {
        return Normalizer.isNormalized(s, Normalizer.Form.NFC) ? s : Normalizer.normalize(s, Normalizer.Form.NFC);
    }

    /** Case folding used for case-insensitive worktrees (NFC, full upper then lower case, NFC). */
    public static String fold(String s) {
        return nfc(nfc(s).toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT));
    }

    /** Python {@code str.isprintable()}: no control, format, surrogate, private, unassigned or separator (except space) code points. */
    public static boolean isPrintable(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == ' ') {
                continue;
            }
            switch (Character.getType(cp)) {
                case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                        Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                        Character.SPACE_SEPARATOR -> {
                    return false;
                }
                default -> {
                }
            }
        }
        return true;
    }

    /** Splits a normalised path into segments ({@code ""} ⇒ none). */
    static List<String> segments(String normalised) {
        List<String> out = new ArrayList<>();
        if (!normalised.isEmpty()) {
            for (String s : normalised.split("/")) {
                out.add(s);
            }
        }
        return out;
    }
}
