package org.switchboard.redsyn.signature;

import jakarta.json.JsonObject;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.crypto.EnvelopeSignature;
import org.switchboard.redsyn.crypto.SignatureCheck;
import org.switchboard.redsyn.message.SignatureVerdict;

/**
 * The relay's signature rule: a {@code sig} is accepted only from the key the sending node
 * registered, only if it covers exactly what arrived, and only within ten minutes of the relay's
 * clock; any other {@code sig} is refused with 401.
 */
public final class SignatureRule {

    private SignatureRule() {
    }

    /**
     * The verdict on an arriving envelope.
     *
     * @param envelope      the envelope exactly as received
     * @param registeredKey the sending node's signing key, or null when it registered none
     * @param node          the sending node's name (delivered in {@code sig.node})
     * @param filesSha256   hex SHA-256 of the decoded zip, "" without files
     * @param nowSeconds    the relay's clock, Unix seconds
     * @throws RedsynException 401 when a sig is present and does not hold
     */
    public static SignatureVerdict verdict(JsonObject envelope, String registeredKey, String node, String filesSha256,
                                           long nowSeconds) {
        SignatureCheck check = EnvelopeSignature.verify(envelope, registeredKey, nowSeconds, filesSha256);
        if (check.refused()) {
            throw new RedsynException(check.httpStatus(), check.message());
        }
        if (!check.signed()) {
            return SignatureVerdict.UNSIGNED;
        }
        return new SignatureVerdict(true, check.deliveredSig(node));
    }
}
