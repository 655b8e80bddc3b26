package org.switchboard.redsyn.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoticesTest {

    @Test
    void wordingFollowsTheDocument() {
        assertEquals("not delivered: acme/dev/ana/close took it 10 times and never confirmed it", Notices.abandoned("acme/dev/ana/close", 10));
        assertEquals("not delivered: it expired before acme/dev/ana/close took it", Notices.expired("acme/dev/ana/close", 0));
    }

    @Test
    void errorReplyGoesBackToTheSenderAndIsNeverReportedItself() {
        MessageEntity request = new MessageEntity("m1", Kind.REQUEST, 1000)
                .from(1, "acme/dev/joel/cli#s2", 2L, 7L, "acme")
                .to(3, "acme/dev/ana/close#s9", 9L, 8, "acme")
                .content("t1", null, null, 60, "{\"type\":\"text/plain\",\"text\":\"x\"}", "[]", false, false);
        assertTrue(Notices.deserved(request));
        MessageEntity notice = Notices.errorReply(request, "not delivered: x", 5000, 100);
        assertEquals(Kind.REPLY, notice.getKind());
        assertTrue(notice.isError());
        assertEquals("m1", notice.getReplyTo());
        assertEquals("acme/dev/joel/cli#s2", notice.getToAddress());
        assertEquals(1, notice.getToAgentId());
        assertEquals(2L, notice.getToSessionId());
        assertEquals("acme/dev/ana/close", notice.getFromAddress());
        assertEquals("t1", notice.getThread());
        assertEquals(5000 + 100_000, notice.getExpiresAt());
        assertFalse(Notices.deserved(notice));
    }
}
