package org.switchboard.synapse.federation.receive;

import jakarta.json.JsonObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The durable inbound ledger of synapse-advanced §4.5 keyed by (origin hub, forward_id): the request
 * digest and the accepted result. Only accepted forwards are recorded.
 */
public interface InboundLedger {

    /** One remembered accepted forward. */
    record Entry(String origin, String forwardId, String kind, String digest, JsonObject result, double receivedAt) {
    }

    /** The remembered forward, or null. */
    Entry find(String origin, String forwardId);

    /**
     * Records an accepted forward; returns false when an entry for the key already existed (a racing
     * repeat), in which case nothing is changed.
     */
    boolean record(Entry entry);

    /** A ledger kept in memory only (unit tests; a hub without a database). */
    static InboundLedger memory() {
        Map<String, Entry> entries = new ConcurrentHashMap<>();
        return new InboundLedger() {
            @Override
            public Entry find(String origin, String forwardId) {
                return entries.get(origin + " " + forwardId);
            }

            @Override
            public boolean record(Entry entry) {
                return entries.putIfAbsent(entry.origin() + " " + entry.forwardId(), entry) == null;
            }
        };
    }
}
