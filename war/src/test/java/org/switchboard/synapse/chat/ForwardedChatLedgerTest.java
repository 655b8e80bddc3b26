package org.switchboard.synapse.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.switchboard.journal.SideRow;
import org.switchboard.synapse.InMemoryJournal;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.TestHub;

/** A forwarded chat's inbound-ledger row rides in the chat's own append and holds the result the origin is sent. */
class ForwardedChatLedgerTest {

    private final InMemoryJournal journal = new InMemoryJournal().writingSideRows();
    private final TestHub hub = new TestHub(SynapseSettings.builder().build(), journal);

    /** A ledger row that keeps the result text it was sequenced with. */
    private static final class Row implements SideRow {
        final java.util.function.LongFunction<String> resultForSeq;
        String written;

        Row(java.util.function.LongFunction<String> resultForSeq) {
            this.resultForSeq = resultForSeq;
        }

        @Override
        public String statement() {
            return "INSERT ledger";
        }

        @Override
        public void bind(PreparedStatement insert) {
        }

        @Override
        public SideRow sequenced(long firstSeq) {
            written = resultForSeq.apply(firstSeq);
            return this;
        }
    }

    private ChatService.ForwardedOutcome forward(String target, Row[] made) throws Exception {
        TestHub.Client peer = hub.register("hub-a");
        return hub.hub.chat().forwarded(peer.connection(), "ACME/alice@hub-a", target, "hello", "hub-a", "f-1", null,
                resultForSeq -> made[0] = new Row(resultForSeq)).get(5, TimeUnit.SECONDS);
    }

    private static JsonObject parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    @Test
    void theRowCommitsWithTheChatAndHoldsTheResultTheOriginGets() throws Exception {
        hub.register("ACME/bob");
        Row[] made = new Row[1];
        ChatService.ForwardedOutcome outcome = forward("ACME/bob", made);

        assertNotNull(made[0]);
        List<InMemoryJournal.Write> writes = journal.sideRowWrites();
        assertEquals(1, writes.size());
        assertEquals("chat", writes.get(0).kinds().get(0), "the row rides in the chat's own append");
        assertEquals(List.of(made[0]), writes.get(0).sideRows());
        assertTrue(outcome.result().getBoolean("delivered"));
        assertEquals(outcome.result(), parse(made[0].written), "the stored result is the one sent, seq included");
        assertTrue(outcome.ledgered());
    }

    @Test
    void aChatToAnAbsentSeatStoresItsDeadLetteredResult() throws Exception {
        Row[] made = new Row[1];
        ChatService.ForwardedOutcome outcome = forward("ACME/nobody", made);

        assertFalse(outcome.result().getBoolean("delivered"));
        assertEquals(outcome.result(), parse(made[0].written));
        assertTrue(outcome.ledgered());
    }

    @Test
    void aFailedLiveWriteMakesTheStoredResultStaleAndSaysSo() throws Exception {
        TestHub.Client bob = hub.register("ACME/bob");
        bob.peer().failWrites(true);
        Row[] made = new Row[1];
        ChatService.ForwardedOutcome outcome = forward("ACME/bob", made);

        assertFalse(outcome.result().getBoolean("delivered"), outcome.result().toString());
        assertTrue(parse(made[0].written).getBoolean("delivered"), "expected before the write");
        assertFalse(outcome.ledgered(), "the receiver amends the row");
    }
}
