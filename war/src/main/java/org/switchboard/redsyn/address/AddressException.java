package org.switchboard.redsyn.address;

/** An address that does not follow the grammar; the message says which part is wrong. */
public class AddressException extends IllegalArgumentException {

    public AddressException(String message) {
        super(message);
    }
}
