package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WorkItemTest {

    @Test
    void roundTrips() {
        assertEquals(WorkItem.deliver(123456789012L, 7), WorkItem.parse(WorkItem.deliver(123456789012L, 7).toJson()));
        assertEquals(WorkItem.scan(42), WorkItem.parse(WorkItem.scan(42).toJson()));
    }

    @Test
    void unreadableItemsAreIllegalArguments() {
        for (String body : new String[] {null, "", "{", "[]", "{\"op\":\"nope\",\"id\":1}", "{\"op\":\"deliver\",\"id\":1}",
            "{\"op\":\"scan\"}", "{\"op\":\"scan\",\"id\":\"x\"}"}) {
            assertThrows(IllegalArgumentException.class, () -> WorkItem.parse(body), String.valueOf(body));
        }
    }
}
