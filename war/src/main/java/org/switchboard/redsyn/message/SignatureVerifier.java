package org.switchboard.redsyn.message;

import jakarta.json.JsonObject;
import org.switchboard.redsyn.directory.Caller;

/**
 * Verifies the node signature of an envelope before it is stored: the seam the signature package
 * (RFC 8785 canonical JSON, Ed25519, registered node keys) plugs into.
 */
public interface SignatureVerifier {

    /**
     * Returns {@link SignatureVerdict#UNSIGNED} when the envelope has no {@code sig}; the verified
     * verdict when it holds; throws a 401 {@code RedsynException} when it does not.
     *
     * @param envelope    the envelope exactly as received
     * @param messageId   the id the message is stored under
     * @param filesSha256 hex SHA-256 of the attached zip, or "" without files
     */
    SignatureVerdict check(Caller caller, JsonObject envelope, EnvelopeDraft draft, String messageId, String filesSha256);
}
