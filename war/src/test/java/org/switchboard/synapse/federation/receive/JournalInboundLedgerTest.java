package org.switchboard.synapse.federation.receive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.schema.H2Scripts;
import org.switchboard.journal.SideRow;
import org.switchboard.synapse.InMemoryJournal;

/** The inbound ledger on the journal's side rows, against the V5 table in an in-memory H2. */
class JournalInboundLedgerTest {

    private final InMemoryJournal journal = new InMemoryJournal().writingSideRows();
    private JdbcDataSource db;
    private JournalInboundLedger ledger;
    private int written;

    @BeforeEach
    void schema() throws Exception {
        db = H2Scripts.memory("inbound-ledger-" + System.nanoTime());
        String script = H2Scripts.script(H2Scripts.fileName(5));
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            for (String statement : script.replaceAll("(?m)^--.*$", "").split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
        ledger = new JournalInboundLedger(journal, db, Runnable::run);
    }

    /** What the journal writer does with the side rows of its transaction. */
    private void commitSideRows() throws Exception {
        List<InMemoryJournal.Write> writes = journal.sideRowWrites();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            for (InMemoryJournal.Write w : writes.subList(written, writes.size())) {
                for (SideRow row : w.sideRows()) {
                    try (PreparedStatement insert = c.prepareStatement(row.statement())) {
                        row.bind(insert);
                        insert.addBatch();
                        insert.executeBatch();
                    }
                }
            }
            c.commit();
        }
        written = writes.size();
    }

    private static JsonObject result(long seq) {
        return Json.createObjectBuilder().add("seq", seq).add("delivered", true).build();
    }

    @Test
    void aRecordRidesAsOneSideRowWithNoEventAndIsFoundOnceCommitted() throws Exception {
        assertNull(ledger.find("hub-a", "f-1"));
        assertTrue(ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5)));
        assertEquals(1, journal.sideRowWrites().size());
        assertEquals(List.of(), journal.sideRowWrites().get(0).kinds(), "no journal event of its own");
        commitSideRows();
        InboundLedger.Entry found = ledger.find("hub-a", "f-1");
        assertEquals(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5), found);
        assertNull(ledger.find("hub-c", "f-1"), "keyed by origin as well");
    }

    @Test
    void aRepeatOfAKnownKeyLeavesTheFirstRowAndFailsNothingInItsBatch() throws Exception {
        ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5));
        commitSideRows();
        ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d2", result(9), 13.0));
        ledger.record(new InboundLedger.Entry("hub-a", "f-2", "chat", "d3", result(10), 13.0));
        commitSideRows(); // would throw on a key violation
        assertEquals("d1", ledger.find("hub-a", "f-1").digest());
        assertEquals("d3", ledger.find("hub-a", "f-2").digest());
    }

    @Test
    void aFailedCommitFailsTheRecord() {
        journal.failAppends(true);
        assertThrows(IllegalStateException.class,
                () -> ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5)));
    }

    @Test
    void keysStoredBeforeTheLedgerExistedAreFoundThroughTheFilter() throws Exception {
        ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5));
        commitSideRows();
        JournalInboundLedger restarted = new JournalInboundLedger(journal, db, Runnable::run);
        assertEquals("d1", restarted.find("hub-a", "f-1").digest(), "the load put the stored key in the filter");
        assertNull(restarted.find("hub-a", "f-2"));
    }

    @Test
    void untilTheKeysAreLoadedEveryLookUpReadsTheTable() throws Exception {
        ledger.record(new InboundLedger.Entry("hub-a", "f-1", "chat", "d1", result(7), 12.5));
        commitSideRows();
        JournalInboundLedger notLoaded = new JournalInboundLedger(journal, db, load -> { });
        assertEquals("d1", notLoaded.find("hub-a", "f-1").digest());
    }

    @Test
    void aRowWithTheChatCommitsInTheChatsAppendWithTheChatsSeqInItsResult() throws Exception {
        journal.append("chat", Json.createObjectBuilder().add("n", 0).build()).join(); // seq 1: not this chat
        var row = ledger.rowWithChat("hub-a", "f-9", "chat", "d9", 20.0, seq -> "{\"seq\":" + seq + ",\"delivered\":true}");
        long[] seqs = journal.append(List.of(new org.switchboard.journal.JournalEvent.Draft("chat",
                Json.createObjectBuilder().add("n", 1).build())), List.of(), List.of(row)).join();
        assertEquals(List.of("chat"), journal.sideRowWrites().get(0).kinds(), "one transaction with the chat's event");
        commitSideRows();
        InboundLedger.Entry found = ledger.find("hub-a", "f-9");
        assertEquals(new InboundLedger.Entry("hub-a", "f-9", "chat", "d9", result(seqs[0]), 20.0), found);
        assertEquals(2, seqs[0]);
    }

    @Test
    void anAmendReplacesTheResultOfARowThatRodeWithItsChat() throws Exception {
        var row = ledger.rowWithChat("hub-a", "f-9", "chat", "d9", 20.0, seq -> "{\"seq\":" + seq + ",\"delivered\":true}");
        journal.append(List.of(new org.switchboard.journal.JournalEvent.Draft("chat",
                Json.createObjectBuilder().add("n", 1).build())), List.of(), List.of(row)).join();
        commitSideRows();
        JsonObject actual = Json.createObjectBuilder().add("seq", 1).add("delivered", false).build();
        ledger.amend(new InboundLedger.Entry("hub-a", "f-9", "chat", "d9", actual, 21.0));
        commitSideRows();
        assertEquals(actual, ledger.find("hub-a", "f-9").result());
        assertEquals("d9", ledger.find("hub-a", "f-9").digest(), "only the result changes");
    }

    @Test
    void aRowForAChatCannotBeWrittenWithoutItsChat() {
        var row = ledger.rowWithChat("hub-a", "f-9", "chat", "d9", 20.0, seq -> "{}");
        journal.append(List.of(), List.of(), List.of(row)).join();
        assertThrows(IllegalStateException.class, this::commitSideRows);
    }
}
