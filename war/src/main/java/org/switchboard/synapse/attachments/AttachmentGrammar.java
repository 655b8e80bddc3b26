package org.switchboard.synapse.attachments;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The field grammars of synapse-advanced §3.4, each refusing with its §3.6 string. Fields that are
 * missing or of the wrong JSON type refuse with {@code attachment unavailable} (§3.6).
 */
public final class AttachmentGrammar {

    /** Largest object (8 MiB). */
    public static final long MAX_LENGTH = 8L * 1024 * 1024;
    /** Largest decoded chunk body or read chunk (32 KiB). */
    public static final int MAX_CHUNK = 32 * 1024;
    /** Largest encoded chunk body: padded base64 of 32 KiB is 43 692 characters. */
    public static final int MAX_ENCODED_CHUNK = 43_692;
    /** Latest permitted expiry, relative to now (365 days). */
    public static final long MAX_EXPIRY_SECONDS = 365L * 86_400;

    private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");
    /**
     * The reference leaves the type part unbounded; RFC 6838 caps it at 127 characters, which keeps the
     * stored column bounded (our choice, written in synapse-conformance.md).
     */
    private static final Pattern MEDIA_TYPE = Pattern.compile("[a-z0-9][a-z0-9.+-]{0,126}/[a-z0-9][a-z0-9.+-]{0,80}");
    /** Longest media type the grammar admits (127 + 1 + 81). */
    public static final int MAX_MEDIA_TYPE_CHARS = 209;
    private static final Pattern PROVENANCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:/#@-]{0,255}");
    private static final Pattern REF = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");
    private static final Pattern UPLOAD_ID = Pattern.compile("[0-9a-f]{48}");
    private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private AttachmentGrammar() {
    }

    /** True when {@code scope} matches the scope grammar. */
    public static boolean isScope(String scope) {
        return scope != null && SCOPE.matcher(scope).matches();
    }

    /** The scope, or {@code invalid attachment scope}. */
    public static String scope(String value) {
        return check(value, SCOPE, AttachmentErrors.INVALID_SCOPE);
    }

    /** A 64-lowercase-hex digest, or {@code invalid attachment digest}. */
    public static String digest(String value) {
        return check(value, DIGEST, AttachmentErrors.INVALID_DIGEST);
    }

    /** A media type, or {@code invalid media type}. */
    public static String mediaType(String value) {
        return check(value, MEDIA_TYPE, AttachmentErrors.INVALID_MEDIA_TYPE);
    }

    /** A provenance, or {@code invalid provenance}. */
    public static String provenance(String value) {
        return check(value, PROVENANCE, AttachmentErrors.INVALID_PROVENANCE);
    }

    /** A reference name, or {@code invalid attachment reference}. */
    public static String ref(String value) {
        return check(value, REF, AttachmentErrors.INVALID_REFERENCE);
    }

    /** True for a well-formed upload id (48 lowercase hex); a malformed id is an unknown upload (§3.4). */
    public static boolean isUploadId(String value) {
        return value != null && UPLOAD_ID.matcher(value).matches();
    }

    /** An object length 0…8 MiB, or {@code invalid attachment length}. */
    public static long length(long value) {
        if (value < 0 || value > MAX_LENGTH) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_LENGTH);
        }
        return value;
    }

    /** An expiry with {@code now < expiresAt ≤ now + 365 days}, or {@code invalid expiry}. */
    public static double expiresAt(double value, double now) {
        if (!Double.isFinite(value) || value <= now || value > now + MAX_EXPIRY_SECONDS) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_EXPIRY);
        }
        return value;
    }

    /**
     * A chunk body: strict padded base64 (no whitespace, no URL alphabet), encoded length ≤ 43 692,
     * decoding to 1…32 768 bytes. Bad encoding is {@code invalid attachment chunk}; an empty or
     * oversized body is {@code invalid chunk length}.
     */
    public static byte[] chunkBody(String value) {
        if (value == null) {
            throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
        }
        if (value.length() > MAX_ENCODED_CHUNK) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK_LENGTH);
        }
        if (!BASE64.matcher(value).matches()) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK);
        }
        // non-canonical trailing bits ("QR==" for "QQ==") would decode the same bytes two ways
        if (!Base64.getEncoder().encodeToString(bytes).equals(value)) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK);
        }
        if (bytes.length == 0 || bytes.length > MAX_CHUNK) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_CHUNK_LENGTH);
        }
        return bytes;
    }

    // ---- JSON field access: missing or wrongly typed fields are "attachment unavailable" ----

    /** A required string field. */
    public static String string(JsonObject frame, String field) {
        JsonValue value = frame.get(field);
        if (value instanceof JsonString s) {
            return s.getString();
        }
        throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }

    /**
     * A required integer field: a JSON number written without a fraction (as the reference's
     * {@code int} check); integers beyond a long clamp to its range so the caller's range check refuses them.
     */
    public static long integer(JsonObject frame, String field) {
        JsonValue value = frame.get(field);
        if (value instanceof JsonNumber n && n.isIntegral()) {
            java.math.BigInteger exact = n.bigIntegerValue();
            if (exact.bitLength() < 64) {
                return exact.longValue();
            }
            return exact.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }

    /** A required number field (never a bool). */
    public static double number(JsonObject frame, String field) {
        JsonValue value = frame.get(field);
        if (value instanceof JsonNumber n) {
            return n.doubleValue();
        }
        throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }

    /** True only when the field is the literal {@code true}; absent is false, any other type refuses. */
    public static boolean flag(JsonObject frame, String field) {
        JsonValue value = frame.get(field);
        if (value == null || value == JsonValue.FALSE || value == JsonValue.NULL) {
            return false;
        }
        if (value == JsonValue.TRUE) {
            return true;
        }
        throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }

    private static String check(String value, Pattern grammar, String error) {
        if (value == null || !grammar.matcher(value).matches()) {
            throw new AttachmentRefusal(error);
        }
        return value;
    }
}
