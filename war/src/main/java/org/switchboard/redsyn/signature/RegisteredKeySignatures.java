package org.switchboard.redsyn.signature;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.keys.NodeKeyService;
import org.switchboard.redsyn.message.EnvelopeDraft;
import org.switchboard.redsyn.message.SignatureVerdict;
import org.switchboard.redsyn.message.SignatureVerifier;

/** The send path's signature check: {@link SignatureRule} against the key the calling node registered. */
@ApplicationScoped
public class RegisteredKeySignatures implements SignatureVerifier {

    @Inject
    NodeKeyService keys;

    @Override
    public SignatureVerdict check(Caller caller, JsonObject envelope, EnvelopeDraft draft, String messageId, String filesSha256) {
        if (!draft.hasSignature()) {
            return SignatureVerdict.UNSIGNED; // no key lookup for the common unsigned case
        }
        return SignatureRule.verdict(envelope, keys.signingKey(caller.nodeId()), caller.node(), filesSha256,
                System.currentTimeMillis() / 1000);
    }
}
