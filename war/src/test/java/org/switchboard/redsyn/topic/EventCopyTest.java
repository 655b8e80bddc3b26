package org.switchboard.redsyn.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.message.EnvelopeRenderer;
import org.switchboard.redsyn.message.Kind;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.message.Notices;

/** How one subscriber's copy of an event is stored and delivered. */
class EventCopyTest {

    private static MessageEntity copy() {
        return new MessageEntity("e0123", Kind.EVENT, 1_790_000_000_000L)
                .from(1, "acme/general/joel/pub", null, 7L, "acme")
                .to(3, "acme/general/ana/l1#s5", 5L, 8, "acme")
                .event("ev-1", "topic:acme/general/news")
                .content("ev-1", null, null, 86_400, "{\"type\":\"text/plain\",\"text\":\"paid\"}", "[]", false, false);
    }

    @Test
    void aCopyIsDeliveredWithThePublishersIdAndItsTopic() {
        JsonObject e = EnvelopeRenderer.delivered(copy());
        assertEquals("ev-1", e.getString("id"));
        assertEquals("event", e.getString("kind"));
        assertEquals("topic:acme/general/news", e.getString("topic"));
        assertEquals("acme/general/ana/l1#s5", e.getString("to"));
        assertEquals("ev-1", copy().wireId());
    }

    @Test
    void otherMessagesKeepTheirIdAndHaveNoTopic() {
        MessageEntity request = new MessageEntity("m1", Kind.REQUEST, 1L).from(1, "a/b/c/d", null, 7L, "a")
                .to(2, "a/b/c/e#s1", 1L, 7, "a").content("m1", null, null, 60, "{\"type\":\"text/plain\",\"text\":\"x\"}", "[]", false, false);
        JsonObject e = EnvelopeRenderer.delivered(request);
        assertEquals("m1", e.getString("id"));
        assertFalse(e.containsKey("topic"));
        assertTrue(Notices.deserved(request));
    }

    @Test
    void anUndeliveredEventCopyTellsNobody() {
        assertFalse(Notices.deserved(copy()), "nobody answers an event, not even the relay");
    }
}
