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

    /**
     * The row recording an accepted chat forward that rides in the chat's own journal append (issue
     * 18), its result given by {@code resultForSeq} once the chat's seq is known; null when this ledger
     * records only after the fact ({@link #record}).
     */
    default org.switchboard.journal.SideRow rowWithChat(String origin, String forwardId, String kind, String digest,
                                                         double receivedAt,
                                                         java.util.function.LongFunction<String> resultForSeq) {
        return null;
    }

    /**
     * Replaces the result of an entry {@link #rowWithChat} wrote when the forward's actual result
     * differed from the expected one (a live write failed); returns once durable.
     */
    default void amend(Entry entry) {
        record(entry);
    }

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
