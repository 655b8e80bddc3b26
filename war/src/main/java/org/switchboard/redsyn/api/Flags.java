package org.switchboard.redsyn.api;

import org.switchboard.redsyn.RedsynException;

/** Query parameter parsing with typed refusals (JAX-RS would answer 404 for a bad number). */
final class Flags {

    private Flags() {
    }

    /** {@code 1}/{@code true} are on; absent, {@code 0} and {@code false} are off. */
    static boolean on(String value) {
        return value != null && (value.equals("1") || value.equalsIgnoreCase("true"));
    }

    /** A whole number of seconds, or null when absent; 422 otherwise. */
    static Integer seconds(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw RedsynException.unprocessable(name + " must be a whole number of seconds");
        }
    }
}
