package org.switchboard.synapse.claims;

import org.switchboard.synapse.wire.BoundedText;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated {@code path_identity} (synapse-core §9.5, synapse-advanced §8): canonical
 * repository-relative paths with optional filesystem object ids, used only to find more conflicts.
 *
 * @param raw                 the object exactly as supplied (persisted and echoed)
 * @param filesystemNamespace {@code sha256:...}
 * @param worktreeObjectId    {@code device:object} or ""
 * @param caseSensitive       the worktree's case policy
 * @param rows                one row per normalised display path, same order
 */
public record PathIdentity(JsonObject raw, String filesystemNamespace, String worktreeObjectId,
                           boolean caseSensitive, List<Row> rows) {

    /** One declared path's identity. */
    public record Row(String gitPath, String filesystemPath, String objectId, String objectScope) {
    }

    /** Result of {@link #validate}: either {@code identity} or a non-null {@code problem}. */
    public record Validation(PathIdentity identity, String problem) {
        /** Whether the field was acceptable (absent counts as acceptable with a null identity). */
        public boolean valid() {
            return problem == null;
        }
    }

    private static final Set<String> KEYS = Set.of("version", "worktree_path", "worktree_object_id",
            "filesystem_namespace", "case_sensitive", "paths");
    private static final Set<String> ROW_KEYS = Set.of("git_path", "filesystem_path", "object_id", "object_scope");
    private static final Pattern OBJECT_ID = Pattern.compile("[0-9A-Za-z]+:[0-9A-Za-z]+");
    private static final Pattern WINDOWS_ABSOLUTE = Pattern.compile("[A-Za-z]:[\\\\/].*");

    /**
     * Validates the field against the claim's normalised display paths. Absent or JSON null ⇒ valid
     * with no identity. The problem text is internal (the wire only says {@code PATH_IDENTITY_INVALID}).
     */
    public static Validation validate(JsonValue value, List<String> displayPaths) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return new Validation(null, null);
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            return bad("path_identity must be an object");
        }
        JsonObject o = value.asJsonObject();
        if (!KEYS.containsAll(o.keySet())) {
            return bad("unexpected field");
        }
        if (!(o.get("version") instanceof JsonNumber v) || !v.isIntegral() || v.bigDecimalValue().intValue() != 1
                || v.bigDecimalValue().compareTo(java.math.BigDecimal.ONE) != 0) {
            return bad("version must be 1");
        }
        String worktreePath = string(o, "worktree_path");
        if (worktreePath == null || !bounded(worktreePath, 4096, false)
                || !(worktreePath.startsWith("/") || WINDOWS_ABSOLUTE.matcher(worktreePath).matches())) {
            return bad("worktree_path must be an absolute path");
        }
        String worktreeObjectId = string(o, "worktree_object_id");
        if (worktreeObjectId == null || !(worktreeObjectId.isEmpty() || OBJECT_ID.matcher(worktreeObjectId).matches())) {
            return bad("worktree_object_id is invalid");
        }
        String namespace = string(o, "filesystem_namespace");
        if (namespace == null || !namespace.startsWith("sha256:") || namespace.length() == "sha256:".length()
                || !bounded(namespace, 128, false)) {
            return bad("filesystem_namespace is invalid");
        }
        JsonValue cs = o.get("case_sensitive");
        if (cs == null || (cs.getValueType() != JsonValue.ValueType.TRUE && cs.getValueType() != JsonValue.ValueType.FALSE)) {
            return bad("case_sensitive must be a boolean");
        }
        boolean caseSensitive = cs.getValueType() == JsonValue.ValueType.TRUE;
        if (!(o.get("paths") instanceof JsonArray paths) || paths.size() != displayPaths.size()) {
            return bad("paths must align with the claim's paths");
        }
        List<Row> rows = new ArrayList<>(paths.size());
        for (int i = 0; i < paths.size(); i++) {
            if (paths.get(i).getValueType() != JsonValue.ValueType.OBJECT) {
                return bad("path row must be an object");
            }
            JsonObject row = paths.getJsonObject(i);
            if (!ROW_KEYS.containsAll(row.keySet())) {
                return bad("unexpected path row field");
            }
            String git = string(row, "git_path");
            String fs = string(row, "filesystem_path");
            String objectId = string(row, "object_id");
            JsonValue scopeValue = row.get("object_scope");
            String scope;
            if (scopeValue == null || scopeValue.getValueType() == JsonValue.ValueType.NULL) {
                scope = "";
            } else if (scopeValue instanceof JsonString s && (s.getString().isEmpty() || bounded(s.getString(), 512, false))) {
                scope = s.getString();
            } else {
                return bad("object_scope is invalid");
            }
            if (!relative(git) || !relative(fs)) {
                return bad("path row is not repository-relative");
            }
            if (objectId == null || !(objectId.isEmpty() || OBJECT_ID.matcher(objectId).matches())) {
                return bad("object_id is invalid");
            }
            if (!comparable(git, caseSensitive).equals(comparable(displayPaths.get(i), caseSensitive))) {
                return bad("path row does not match its display path");
            }
            rows.add(new Row(git, fs, objectId, scope));
        }
        return new Validation(new PathIdentity(o, namespace, worktreeObjectId, caseSensitive, List.copyOf(rows)), null);
    }

    /** The comparison form of a path under a case policy (NFC, folded when case-insensitive). */
    public static String comparable(String path, boolean caseSensitive) {
        return caseSensitive ? ScopePaths.nfc(path) : ScopePaths.fold(path);
    }

    /** Object ids of two identities may be compared (same namespace and same worktree object). */
    public boolean sameFilesystemAs(PathIdentity other) {
        return other != null && filesystemNamespace.equals(other.filesystemNamespace)
                && worktreeObjectId.equals(other.worktreeObjectId);
    }

    /** Object scope conflict: whole object vs anything, equal, or ancestor/descendant by {@code /}. */
    public static boolean scopesConflict(String a, String b) {
        if (a.isEmpty() || b.isEmpty() || a.equals(b)) {
            return true;
        }
        return a.startsWith(b + "/") || b.startsWith(a + "/");
    }

    private static Validation bad(String problem) {
        return new Validation(null, problem);
    }

    private static String string(JsonObject o, String key) {
        JsonValue v = o.get(key);
        return v instanceof JsonString s ? s.getString() : null;
    }

    /** Repository-relative: non-empty, no leading {@code /}, no empty, {@code .} or {@code ..} segment, printable. */
    private static boolean relative(String p) {
        if (p == null || p.isEmpty() || p.startsWith("/") || !bounded(p, 4096, false) || p.indexOf('\\') >= 0) {
            return false;
        }
        for (String seg : p.split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** Bounded printable string (advanced §1.2): non-empty unless allowed, UTF-8 length, no C0/DEL, no lone surrogate. */
    static boolean bounded(String s, int maxBytes, boolean mayBeEmpty) {
        return BoundedText.valid(s, maxBytes, mayBeEmpty);
    }
}
