package org.switchboard.synapse.idempotency;

/**
 * The durable side of the idempotency ledger (synapse-core §15.3: operation records are kept
 * indefinitely on journal hubs). Implementations must be thread-safe.
 */
public interface OperationStore {

    /** The record stored under {@code operationKey}, or null. */
    OperationRecord find(String operationKey);

    /** Remembers a committed record (latest wins). */
    void put(OperationRecord record);
}
