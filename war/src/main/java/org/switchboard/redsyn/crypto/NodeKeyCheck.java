package org.switchboard.redsyn.crypto;

/**
 * The verdict on the keys of a {@code PUT /nodes/key} body.
 *
 * @param ok          whether the keys may be stored
 * @param error       why not (empty when ok); safe to send to the client
 * @param fingerprint the fingerprint of the signing key when ok, else null
 */
public record NodeKeyCheck(boolean ok, String error, String fingerprint) {

    static NodeKeyCheck accepted(String fingerprint) {
        return new NodeKeyCheck(true, "", fingerprint);
    }

    static NodeKeyCheck refused(String error) {
        return new NodeKeyCheck(false, error, null);
    }
}
