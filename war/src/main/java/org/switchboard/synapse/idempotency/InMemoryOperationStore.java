package org.switchboard.synapse.idempotency;

import java.util.concurrent.ConcurrentHashMap;

/**
 * An unbounded {@link OperationStore} filled by journal replay and by new commits; stands in for a
 * database lookup on journal hubs (memory grows with the number of keyed operations ever made).
 */
public final class InMemoryOperationStore implements OperationStore {

    private final ConcurrentHashMap<String, OperationRecord> records = new ConcurrentHashMap<>();

    @Override
    public OperationRecord find(String operationKey) {
        return records.get(operationKey);
    }

    @Override
    public void put(OperationRecord record) {
        records.put(record.operationKey(), record);
    }

    /** Number of records held. */
    public int size() {
        return records.size();
    }

    /** Every record held (a snapshot writes them). */
    public java.util.Collection<OperationRecord> all() {
        return java.util.List.copyOf(records.values());
    }
}
