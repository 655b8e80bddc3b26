package org.switchboard.synapse.messageauth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A row of {@code synapse_message_auth_nonce_batch} (V6): every nonce one journal transaction accepted,
 * packed into one binary value, with the latest expiry among them in a column of its own (issue 17).
 * Why: one row per nonce made a paranoid hub's journal writer insert, and its prune delete, one indexed
 * row per signed frame (55 µs of writer CPU and 31 µs of prune per claim+release pair against 12 and 12
 * on an open hub); one row per commit costs one insert per commit, and the prune deletes a row only
 * once its last nonce has expired.
 *
 * <p>Packed form, per nonce: its expiry (epoch seconds, an 8-byte IEEE double, so start-up gets back
 * exactly what was admitted), then a length byte and the identity. An identity of lowercase hex digits
 * of even length (what {@link NonceCache#id} makes) is stored as its bytes, the length byte's top bit
 * set; any other as UTF-8.
 */
final class NonceBatch {

    /** The insert of one packed row; the key is the table's identity column. */
    static final String INSERT =
            "INSERT INTO synapse_message_auth_nonce_batch (max_expires_at, nonces) VALUES (?, ?)";
    /** Nonces per table row at most, so a row stays far below the column's 65,536 bytes. */
    static final int MAX_PER_ROW = 256;
    /** Bytes an identity may take in the packed form. */
    static final int MAX_ID_BYTES = 127;

    private static final HexFormat HEX = HexFormat.of();

    private NonceBatch() {
    }

    /** One admitted nonce: its identity and expiry (epoch s). */
    interface Entry {
        /** The identity ({@link NonceCache#id}). */
        String id();

        /** Epoch seconds after which it could no longer pass the window. */
        double expiresAt();
    }

    /** Throws unless {@code id} fits the packed form (checked on the frame's thread, not the writer's). */
    static void check(String id) {
        if (!packsAsHex(id) && id.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
            throw new IllegalArgumentException("nonce identity longer than " + MAX_ID_BYTES + " bytes");
        }
    }

    /**
     * Binds {@code entries} as rows of {@link #INSERT} to {@code insert}, adding each to its batch: one row
     * per {@value #MAX_PER_ROW} entries.
     */
    static void bindRows(PreparedStatement insert, List<? extends Entry> entries) throws SQLException {
        for (int from = 0; from < entries.size(); from += MAX_PER_ROW) {
            bind(insert, entries.subList(from, Math.min(entries.size(), from + MAX_PER_ROW)));
            insert.addBatch();
        }
    }

    /** Binds {@code entries} (at most {@value #MAX_PER_ROW}) as one row of {@link #INSERT}. */
    static void bind(PreparedStatement insert, List<? extends Entry> entries) throws SQLException {
        if (entries.isEmpty() || entries.size() > MAX_PER_ROW) {
            throw new IllegalArgumentException(entries.size() + " nonces for one row");
        }
        double max = Double.NEGATIVE_INFINITY;
        for (Entry e : entries) {
            max = Math.max(max, e.expiresAt());
        }
        insert.setDouble(1, max);
        insert.setBytes(2, encode(entries));
    }

    /** The packed form of {@code entries}. */
    static byte[] encode(List<? extends Entry> entries) {
        byte[][] ids = new byte[entries.size()][];
        int size = 0;
        for (int i = 0; i < ids.length; i++) {
            String id = entries.get(i).id();
            ids[i] = packsAsHex(id) ? HEX.parseHex(id) : id.getBytes(StandardCharsets.UTF_8);
            if (ids[i].length > MAX_ID_BYTES) {
                throw new IllegalArgumentException("nonce identity longer than " + MAX_ID_BYTES + " bytes");
            }
            size += Double.BYTES + 1 + ids[i].length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (int i = 0; i < ids.length; i++) {
            out.putDouble(entries.get(i).expiresAt());
            boolean hex = packsAsHex(entries.get(i).id());
            out.put((byte) (hex ? 0x80 | ids[i].length : ids[i].length));
            out.put(ids[i]);
        }
        return out.array();
    }

    /**
     * Adds to {@code live} the entries of packed value {@code packed} that expire at or after {@code now}
     * (a row outlives its earlier nonces until its last one expires).
     */
    static void decodeLive(byte[] packed, double now, Map<String, Double> live) {
        ByteBuffer in = ByteBuffer.wrap(packed);
        while (in.hasRemaining()) {
            double expiresAt = in.getDouble();
            int tag = in.get() & 0xff;
            byte[] id = new byte[tag & 0x7f];
            in.get(id);
            if (expiresAt >= now) {
                live.merge((tag & 0x80) != 0 ? HEX.formatHex(id) : new String(id, StandardCharsets.UTF_8),
                        expiresAt, Math::max);
            }
        }
    }

    /** Whether {@code id} is lowercase hex of even length, short enough to pack as bytes. */
    private static boolean packsAsHex(String id) {
        int n = id.length();
        if (n == 0 || n % 2 != 0 || n / 2 > MAX_ID_BYTES) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = id.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
