package org.switchboard.synapse.federation.peerread;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The private owner audit of peer attachment requests (synapse-advanced §5.4): one row per request,
 * the latest {@link #KEEP} kept, older rows deleted in the same write. A write that fails throws, and
 * the request is then refused.
 */
public interface PeerReadAudit {

    /** Rows kept. */
    int KEEP = 256;

    /** One audit row; {@code scope}/{@code digest} are empty when the request's were not well-formed. */
    record Row(long sequence, double readAt, String recipient, String scope, String digest, String action,
               boolean allowed) {
    }

    /** Appends one row (sequence assigned by the audit) and trims to the latest {@link #KEEP}. */
    void record(double readAt, String recipient, String scope, String digest, String action, boolean allowed);

    /** The kept rows, oldest first (owner tooling and tests). */
    List<Row> rows();

    /** An audit kept in memory (unit tests; a hub without a database). */
    static PeerReadAudit memory() {
        return new PeerReadAudit() {
            private final ArrayDeque<Row> rows = new ArrayDeque<>();
            private long sequence;

            @Override
            public synchronized void record(double readAt, String recipient, String scope, String digest, String action,
                                            boolean allowed) {
                rows.addLast(new Row(++sequence, readAt, recipient, scope, digest, action, allowed));
                while (rows.size() > KEEP) {
                    rows.removeFirst();
                }
            }

            @Override
            public synchronized List<Row> rows() {
                return List.copyOf(rows);
            }
        };
    }
}
