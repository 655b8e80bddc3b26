package org.switchboard.synapse.attachments;

/** One committed object's ledger row: the §3.4 {@code metadata} fields. */
public record AttachmentMetadata(String scope, String digest, long length, String mediaType, String provenance,
                                 double expiresAt) {

    /** True once the object's expiry has passed. */
    public boolean expired(double now) {
        return expiresAt <= now;
    }
}
