package org.switchboard.synapse.receipts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Receipt rules that moved out of the chat package with {@link ReceiptService} (were in ChatRulesTest). */
class ReceiptRulesTest {

    @Test
    void pendingReceiptsEvictTheOldestPastTheBound() {
        PendingReceipts pending = new PendingReceipts(2);
        assertNull(pending.add(new PendingReceipts.Pending(5, "s", "t", 1, null)));
        assertNull(pending.add(new PendingReceipts.Pending(7, "s", "t", 2, null)));
        PendingReceipts.Pending evicted = pending.add(new PendingReceipts.Pending(9, "s", "t", 3, null));
        assertEquals(5, evicted.seq());
        assertEquals(2, pending.size());
    }

    @Test
    void receiptPayloadsAndLabels() {
        var verdict = new ReceiptService.Verdict(true, java.util.List.of("p/a", "p/b"), java.util.List.of("p/a", "p/b"),
                java.util.List.of(), "", false, java.util.Map.of("p/a", "passive", "p/b", "unknown"));
        assertEquals("delivered to p/a (passive receiver), p/b", ReceiptService.payload("p/a,p/b", verdict));
        assertEquals("pane bridge", ReceiptService.label("pane_bridge"));
    }
}
