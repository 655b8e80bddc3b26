package org.switchboard.redsyn.crypto;

/** A sealed message that cannot be opened: wrong key, altered ciphertext, or an id/kind it was not sealed for. */
public class SealOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with what failed. */
    public SealOpenException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Creates the exception with what failed. */
    public SealOpenException(String message) {
        super(message);
    }
}
