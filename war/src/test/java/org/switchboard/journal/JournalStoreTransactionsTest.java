package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Transactional;
import java.lang.reflect.Method;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The journal reads the hub makes on its own pool threads after start (a registration's receipt
 * outbox, the pending count) run in a transaction: a read outside one leaves the container's entity
 * manager open until the pool thread ends, and a thread ending after the persistence unit closed died
 * on "a closed EntityManager" when a hub was stopped soon after start (issue 19).
 */
class JournalStoreTransactionsTest {

    @Test
    void runtimeReadsRunInATransaction() throws Exception {
        for (Method m : new Method[] {JournalStore.class.getMethod("pendingOutbox", String.class),
                JournalStore.class.getMethod("pendingOutboxCount")}) {
            Transactional tx = m.getAnnotation(Transactional.class);
            assertNotNull(tx, m.getName() + " runs outside a transaction");
            assertTrue(Set.of(Transactional.TxType.REQUIRED, Transactional.TxType.REQUIRES_NEW).contains(tx.value()),
                    m.getName() + ": " + tx.value());
        }
    }
}
