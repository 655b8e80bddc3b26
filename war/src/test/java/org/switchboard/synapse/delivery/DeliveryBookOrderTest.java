package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The book's listings keep key order however its open set is stored. */
class DeliveryBookOrderTest {

    private static Aggregate queued(String key, String incarnation, double deadline, long order) {
        DeliveryIntent intent = new DeliveryIntent("p/sender", "rq-" + key, "idem-" + key, "p/recipient", incarnation,
                "follow_up", List.of(), "T", "body", deadline);
        return new Aggregate(key, intent, "hub-a", "hub-a", "digest-" + key, "follow_up", "native", Stage.QUEUED,
                false, false, false, 1, order, order, null);
    }

    private static List<String> keys(List<Aggregate> aggregates) {
        return aggregates.stream().map(Aggregate::operationKey).toList();
    }

    /** Operation-key-like texts (hex SHA-256), whose hash order is not their key order. */
    private static List<String> hexKeys(int count) throws Exception {
        java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(java.util.HexFormat.of().formatHex(sha.digest(("request " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        }
        return out;
    }

    @Test
    void expiredListsDueRequestsInKeyOrderUpToTheLimit() throws Exception {
        DeliveryBook book = new DeliveryBook();
        List<String> keys = hexKeys(40);
        for (int i = 0; i < keys.size(); i++) {
            book.restore(queued(keys.get(i), "inc", i % 4 == 0 ? 200 : 50, i + 1)); // every fourth not yet due
        }
        List<String> due = new java.util.ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (i % 4 != 0) {
                due.add(keys.get(i));
            }
        }
        due.sort(null);
        assertEquals(due.subList(0, 5), keys(book.expired(100, 5)));
        assertEquals(due, keys(book.expired(100, 100)));
        assertEquals(List.of(), keys(book.expired(100, 0)));
    }

    @Test
    void otherIncarnationsAreListedInKeyOrder() throws Exception {
        DeliveryBook book = new DeliveryBook();
        List<String> keys = hexKeys(30);
        List<String> others = new java.util.ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String incarnation = i % 3 == 0 ? "new" : "old-" + (i % 2);
            book.restore(queued(keys.get(i), incarnation, 500, i + 1));
            if (i % 3 != 0) {
                others.add(keys.get(i));
            }
        }
        others.sort(null);
        assertEquals(others, keys(book.openForOtherIncarnations("p/recipient", "new")));
    }
}
