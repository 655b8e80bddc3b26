package org.switchboard.redsyn.message;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.directory.Caller;

/**
 * The signature check used while no node can register a key: unsigned envelopes pass, and any
 * {@code sig} is refused with 401 because nothing can verify it. Never treats a signature as valid.
 */
@ApplicationScoped
public class UnverifiableSignatures implements SignatureVerifier {

    @Override
    public SignatureVerdict check(Caller caller, JsonObject envelope, EnvelopeDraft draft, String messageId, String filesSha256) {
        if (!draft.hasSignature()) {
            return SignatureVerdict.UNSIGNED;
        }
        throw RedsynException.unauthorized("signature cannot be verified: node " + caller.node() + " has no registered key");
    }
}
