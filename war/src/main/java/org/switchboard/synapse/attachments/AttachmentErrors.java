package org.switchboard.synapse.attachments;

import java.util.List;

/** The stable error strings of synapse-advanced §3.6, the only texts an {@code attachment_result} refusal carries. */
public final class AttachmentErrors {

    public static final String DISABLED = "attachments disabled";
    public static final String VERSION = "attachment protocol version four required";
    public static final String ACCESS_DENIED = "attachment access denied";
    public static final String INVALID_SCOPE = "invalid attachment scope";
    public static final String INVALID_DIGEST = "invalid attachment digest";
    public static final String INVALID_LENGTH = "invalid attachment length";
    public static final String INVALID_MEDIA_TYPE = "invalid media type";
    public static final String INVALID_PROVENANCE = "invalid provenance";
    public static final String INVALID_EXPIRY = "invalid expiry";
    public static final String ALREADY_EXISTS = "attachment already exists";
    public static final String TOO_MANY_UPLOADS = "too many active uploads";
    public static final String SCOPE_QUOTA = "attachment scope quota exceeded";
    public static final String UNKNOWN_UPLOAD = "unknown upload";
    public static final String INVALID_CHUNK = "invalid attachment chunk";
    public static final String INVALID_OFFSET = "invalid chunk offset";
    public static final String INVALID_CHUNK_LENGTH = "invalid chunk length";
    public static final String STAGING_MISMATCH = "staging length mismatch";
    public static final String INCOMPLETE = "upload incomplete";
    public static final String DIGEST_MISMATCH = "attachment digest mismatch";
    public static final String UNAVAILABLE = "attachment unavailable";
    public static final String EXPIRED = "attachment expired";
    public static final String INVALID_READ_OFFSET = "invalid read offset";
    public static final String STORED_LENGTH_MISMATCH = "stored attachment length mismatch";
    public static final String STORED_DIGEST_MISMATCH = "stored attachment digest mismatch";
    public static final String INVALID_REFERENCE = "invalid attachment reference";

    /** Every stable string, in §3.6 order (the {@code /metrics} label set). */
    public static final List<String> ALL = List.of(DISABLED, VERSION, ACCESS_DENIED, INVALID_SCOPE, INVALID_DIGEST,
            INVALID_LENGTH, INVALID_MEDIA_TYPE, INVALID_PROVENANCE, INVALID_EXPIRY, ALREADY_EXISTS, TOO_MANY_UPLOADS,
            SCOPE_QUOTA, UNKNOWN_UPLOAD, INVALID_CHUNK, INVALID_OFFSET, INVALID_CHUNK_LENGTH, STAGING_MISMATCH,
            INCOMPLETE, DIGEST_MISMATCH, UNAVAILABLE, EXPIRED, INVALID_READ_OFFSET, STORED_LENGTH_MISMATCH,
            STORED_DIGEST_MISMATCH, INVALID_REFERENCE);

    private AttachmentErrors() {
    }
}
