package org.switchboard.crypto;

/** Input that does not have the shape a REDSYN crypto rule requires; the message says what is wrong. */
public class CryptoFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message meant for the client that sent the input. */
    public CryptoFormatException(String message) {
        super(message);
    }

    /** Creates the exception with a message and the low-level cause. */
    public CryptoFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
