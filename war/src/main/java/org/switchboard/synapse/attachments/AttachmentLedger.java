package org.switchboard.synapse.attachments;

import java.util.List;
import java.util.Optional;

/**
 * The attachment store's durable bookkeeping (objects, references, open uploads). The hub keeps it in
 * its own database ({@link JpaAttachmentLedger}) rather than a separate ledger file; every method is one
 * transaction.
 */
public interface AttachmentLedger {

    /** The object's metadata, if committed. */
    Optional<AttachmentMetadata> find(String scope, String digest);

    /** Every committed object (start-up sweep of orphan files). */
    List<AttachmentMetadata> all();

    /** Every committed object in {@code scope}. */
    List<AttachmentMetadata> inScope(String scope);

    /** Records an open upload (owned by a socket session; never resumable). */
    void insertUpload(String uploadId, String scope, String digest, long length, String owner);

    /** Forgets an open upload (abort, digest mismatch, disconnect). */
    void deleteUpload(String uploadId);

    /** Forgets every open upload (start-up: uploads never survive a restart). */
    void deleteAllUploads();

    /** Inserts the object's metadata and deletes its upload row, in one transaction. */
    void commit(String uploadId, AttachmentMetadata metadata);

    /** Deletes the object's metadata and its references. */
    void deleteObject(String scope, String digest);

    /** Adds a reference; idempotent. */
    void addRef(String scope, String digest, String ref);

    /** Removes a reference; removing an absent one is a no-op. */
    void removeRef(String scope, String digest, String ref);

    /** True when the object has at least one reference. */
    boolean referenced(String scope, String digest);
}
