package org.switchboard.synapse.attachments;

import jakarta.json.JsonObject;

/**
 * Where an {@code attachment_info}/{@code attachment_read} naming a {@code source_hub} leaves this hub
 * (ours, for synapse-advanced §5: a local agent reads an object of a peer hub through its own hub).
 * Implemented by the cross-hub feature over one {@code attachment_peer_request}.
 */
public interface RemoteAttachments {

    /**
     * The success fields of the {@code attachment_result} ({@code metadata} for {@code info};
     * {@code body}, {@code eof}, {@code offset}, {@code digest} for {@code read}) fetched from
     * {@code sourceHub}; blocks up to the peer timeout. Throws an {@link AttachmentRefusal} with
     * {@code attachment unavailable} on any failure, never saying which.
     *
     * @param action {@code info} or {@code read}; {@code offset} is null for {@code info}
     */
    JsonObject fetch(String sourceHub, String action, String scope, String digest, Long offset);
}
