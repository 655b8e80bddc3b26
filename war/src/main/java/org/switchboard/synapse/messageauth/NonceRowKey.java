package org.switchboard.synapse.messageauth;

import java.util.Locale;

/**
 * The {@code nonce_id} a replay-store row is stored under: the expiry in epoch milliseconds as eleven
 * hex digits, a dot, then the nonce's identity ({@link NonceCache#id}). Why (issue 17): keyed by the
 * bare SHA-256, every insert landed on a random page of the key index, so each group commit of the
 * journal rewrote one index page per nonce (measured at ~150 µs of writer CPU per signed frame at
 * ~90,000 live rows, ten times the cost of an appended key). Expiries of admitted frames lie within the
 * window of the hub's clock, so these keys arrive almost in order, and expired rows form a key range
 * that the prune deletes through the index instead of scanning the table.
 */
final class NonceRowKey {

    /** Hex digits of the expiry prefix (milliseconds up to the year 2527). */
    static final int PREFIX_CHARS = 11;
    /** The longest identity a row key holds (the column is 64 characters). */
    static final int MAX_ID_CHARS = 64 - PREFIX_CHARS - 1;

    private NonceRowKey() {
    }

    /** The row key of identity {@code id} expiring at {@code expiresAt} (epoch s). */
    static String of(String id, double expiresAt) {
        if (id.length() > MAX_ID_CHARS) {
            throw new IllegalArgumentException("nonce identity longer than " + MAX_ID_CHARS + " characters");
        }
        return prefix(expiresAt) + "." + id;
    }

    /**
     * The smallest key of a row expiring at or after {@code time}: every row key below it expired
     * before {@code time} (a row written before this scheme has no dot and may sort anywhere).
     */
    static String prefix(double time) {
        long millis = Math.max(0, Math.min((long) Math.floor(time * 1000), 0xfff_ffff_ffffL));
        String hex = Long.toHexString(millis).toLowerCase(Locale.ROOT);
        return "0".repeat(PREFIX_CHARS - hex.length()) + hex;
    }

    /**
     * The identity a stored key holds; a key written before this scheme (the bare 64-hex SHA-256)
     * yields its first {@link #MAX_ID_CHARS} characters, which is what {@link NonceCache#id} now returns.
     */
    static String identity(String rowKey) {
        if (rowKey.length() > PREFIX_CHARS && rowKey.charAt(PREFIX_CHARS) == '.') {
            return rowKey.substring(PREFIX_CHARS + 1);
        }
        return rowKey.length() > MAX_ID_CHARS ? rowKey.substring(0, MAX_ID_CHARS) : rowKey;
    }
}
