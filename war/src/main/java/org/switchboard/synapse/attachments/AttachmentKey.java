package org.switchboard.synapse.attachments;

import java.io.Serializable;
import java.util.Objects;

/** The composite key (scope, digest) of {@link AttachmentObjectEntity}. */
public class AttachmentKey implements Serializable {

    private static final long serialVersionUID = 1L;

    private String scope;
    private String digest;

    /** For JPA. */
    public AttachmentKey() {
    }

    /** The key of one object. */
    public AttachmentKey(String scope, String digest) {
        this.scope = scope;
        this.digest = digest;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AttachmentKey k && Objects.equals(scope, k.scope) && Objects.equals(digest, k.digest);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scope, digest);
    }
}
