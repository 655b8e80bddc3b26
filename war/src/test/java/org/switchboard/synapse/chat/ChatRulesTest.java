package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatRulesTest {

    @Test
    void clientMsgIdNormalisation() {
        assertEquals("abc", DuplicateSuppressor.normaliseId("  abc "));
        assertNull(DuplicateSuppressor.normaliseId("   "));
        assertNull(DuplicateSuppressor.normaliseId("a\u007fb"));
        assertNull(DuplicateSuppressor.normaliseId("é".repeat(129)), "258 UTF-8 bytes");
        assertEquals(128, DuplicateSuppressor.normaliseId("é".repeat(128)).length());
    }

    @Test
    void contentDigestIgnoresTransportFields() {
        var a = Json.createObjectBuilder().add("sender", "s").add("payload", "p").add("timestamp", 1).add("msg_id", 1)
                .add("seq", 4).add("hub_id", "h").add("receipt_requested", true).build();
        var b = Json.createObjectBuilder().add("payload", "p").add("sender", "s").add("timestamp", 2).add("msg_id", 9).build();
        var c = Json.createObjectBuilder().add("payload", "q").add("sender", "s").build();
        assertEquals(DuplicateSuppressor.contentDigest(a), DuplicateSuppressor.contentDigest(b));
        assertFalse(DuplicateSuppressor.contentDigest(a).equals(DuplicateSuppressor.contentDigest(c)));
    }

    @Test
    void duplicateMemoryExpiresAndIsBounded() {
        DuplicateSuppressor memory = new DuplicateSuppressor();
        memory.remember("s", "id", new DuplicateSuppressor.Remembered("d", 1, 2L, null, 0));
        assertTrue(memory.check("s", "id", "d", 10).duplicate());
        assertTrue(memory.check("s", "id", "x", 10).conflict());
        assertFalse(memory.check("other", "id", "d", 10).duplicate(), "pairs are per sender");
        assertFalse(memory.check("s", "id", "d", DuplicateSuppressor.WINDOW + 1).duplicate(), "24 h window");
        for (int i = 0; i < DuplicateSuppressor.CAPACITY + 10; i++) {
            memory.remember("s", "k" + i, new DuplicateSuppressor.Remembered("d", i, null, null, 1));
        }
        assertEquals(DuplicateSuppressor.CAPACITY, memory.size());
        assertFalse(memory.check("s", "id", "d", 10).duplicate(), "oldest evicted");
    }

    @Test
    void deadLetterLedgerCountsSortsAndBounds() {
        DeadLetterLedger ledger = new DeadLetterLedger();
        ledger.record("p/b", "p/a", 1);
        ledger.record("p/b", "p/c", 2);
        ledger.record("p/a", "p/c", 3);
        var snapshot = ledger.snapshot(4);
        assertEquals("p/b", snapshot.get(0).target());
        assertEquals(2, snapshot.get(0).count());
        assertEquals("p/c", snapshot.get(0).lastSender());
        for (int i = 0; i < 250; i++) {
            ledger.record("t" + i, "s", 10 + i);
        }
        assertEquals(DeadLetterLedger.CAPACITY, ledger.targets());
        assertEquals(1, ledger.record("old", "s", 10 + DeadLetterLedger.MAX_AGE * 2));
    }

    @Test
    void ingressQuotaReasons() {
        IngressQuotas quotas = new IngressQuotas(10, 100, 60, 1);
        assertEquals("oversized", quotas.charge("a", 101, 0));
        assertNull(quotas.charge("a", 60, 0));
        assertEquals("bytes", quotas.charge("a", 60, 1));
        assertEquals("principal-capacity", quotas.charge("b", 1, 2), "no idle bucket to evict");
        assertNull(quotas.charge("b", 1, 100), "a's window expired, so its bucket is evicted");
    }

    @Test
    void seqSplicedIntoTheJournalledTextEqualsTheRebuiltFrame() {
        var chat = Json.createObjectBuilder().add("type", "chat").add("sender", "a/b").add("target", "c/d")
                .add("payload", "quote \" and \u00e9 and } brace").add("nested", Json.createObjectBuilder().add("x", 1))
                .add("timestamp", 1.5e9).add("msg_id", 42).build();
        for (long seq : new long[] {1, 1234567890123L}) {
            String rebuilt = Json.createObjectBuilder(chat).add("seq", seq).build().toString();
            assertEquals(rebuilt, ChatService.withSeq(chat.toString(), seq));
        }
    }

    @Test
    void historyFiltersTheJournalledChatAndReturnsItWithSeq() {
        ChatHistory history = new ChatHistory(2);
        var first = Json.createObjectBuilder().add("sender", "a").add("msg_id", 1).build();
        var second = Json.createObjectBuilder().add("sender", "b").add("msg_id", 2).build();
        var third = Json.createObjectBuilder().add("sender", "a").add("msg_id", 3).build();
        history.add(first, 10);
        history.add(second, 11);
        history.add(third.toString(), null);
        assertEquals(2, history.size(), "bounded");
        var selected = history.select(f -> "a".equals(f.getString("sender")));
        assertEquals(1, selected.size(), "the oldest was trimmed");
        assertEquals(third, selected.get(0), "a chat added without seq is returned as given");
        var withSeq = history.select(f -> "b".equals(f.getString("sender")));
        assertEquals(11, withSeq.get(0).getInt("seq"));
        assertEquals(2, withSeq.get(0).getInt("msg_id"));
    }

    @Test
    void historyLimitedSelectReturnsTheNewestMatchesOldestFirst() {
        ChatHistory history = new ChatHistory(10);
        for (int i = 1; i <= 6; i++) {
            String sender = i % 2 == 0 ? "even" : "odd";
            history.add("{\"sender\":\"" + sender + "\",\"msg_id\":" + i + "}", i == 6 ? null : Long.valueOf(100 + i));
        }
        var newestTwoEven = history.select(f -> "even".equals(f.getString("sender")), 2);
        assertEquals(2, newestTwoEven.size());
        assertEquals(4, newestTwoEven.get(0).getInt("msg_id"), "oldest of the two first");
        assertEquals(104, newestTwoEven.get(0).getInt("seq"));
        assertEquals(6, newestTwoEven.get(1).getInt("msg_id"));
        assertEquals(false, newestTwoEven.get(1).containsKey("seq"), "added without a seq: returned as given");
        assertEquals(3, history.select(f -> "odd".equals(f.getString("sender"))).size(), "unlimited select sees all");
    }

    @Test
    void memberTextIsWhatCompactJsonWritesOrNullWhenItMayBeEscaped() {
        for (String value : new String[] {"bench/nobody", "a b", "proj/*", "x:y@z", "<&>", "~!#$%^()"}) {
            String text = Json.createObjectBuilder().add("payload", "p").add("target", value).build().toString();
            assertEquals(true, text.contains(ChatHistory.memberText("target", value)), value);
        }
        for (String value : new String[] {"quote\"d", "back\\slash", "tab\t", "caf\u00e9", "line\n"}) {
            assertEquals(null, ChatHistory.memberText("target", value), value);
        }
    }

    @Test
    void selectSkipsEntriesWithoutTheMemberTextAndStillAppliesTheFilter() {
        ChatHistory history = new ChatHistory(10);
        history.add("{\"sender\":\"a\",\"target\":\"bob\",\"msg_id\":1}", 1L);
        history.add("{\"sender\":\"a\",\"target\":\"carol\",\"msg_id\":2}", 2L);
        history.add("{\"sender\":\"a\",\"meta\":{\"target\":\"bob\"},\"target\":\"dan\",\"msg_id\":3}", 3L);
        List<String> parsed = new java.util.ArrayList<>();
        var toBob = history.select(ChatHistory.memberText("target", "bob"), f -> {
            parsed.add(f.getString("target"));
            return "bob".equals(f.getString("target"));
        }, Integer.MAX_VALUE);
        assertEquals(1, toBob.size());
        assertEquals(1, toBob.get(0).getInt("msg_id"));
        assertEquals(List.of("dan", "bob"), parsed,
                "carol's chat is not parsed (no \"target\":\"bob\" in its text); dan's is, and the filter refuses it");
        assertEquals(3, history.select(null, f -> true, Integer.MAX_VALUE).size(), "no text condition: every entry");
    }
}
