package org.switchboard.redsyn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.schema.H2Scripts;

/**
 * The relay writer's transaction on H2 with the migrated schema: updates of several requests in one commit
 * each get the row count they would get alone, in order (two acks of one message: one ends it), and a
 * batch that fails leaves nothing behind, so its acks can be retried or answered by the read path.
 */
class RelayWriterCommitTest {

    private static Connection database(String name) throws Exception {
        Connection c = H2Scripts.memory(name).getConnection("sa", "");
        try (Statement s = c.createStatement()) {
            H2Scripts.applyThrough(s, 8);
            for (int seq = 1; seq <= 3; seq++) {
                s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                        + "leaseuntil, expiresat, waiting, deadline) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', 'm" + seq
                        + "', 't', 'a/b/c/e', 3, " + DeliveryState.TAKEN + ", 7000, 9000, 1, 7000)");
            }
        }
        return c;
    }

    private static GroupedUpdates.Update ack(String id) {
        return new GroupedUpdates.Update(MessageEntity.ACK_TAKEN_SQL, List.of(DeliveryState.DONE, 8000L, id, 3L, DeliveryState.TAKEN));
    }

    private static String states(Connection c) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT messageid, state FROM redsyn_message ORDER BY seq")) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('=').append(rs.getInt(2)).append(' ');
            }
        }
        return out.toString().trim();
    }

    @Test
    void eachAckInASharedCommitGetsTheCountItWouldGetAloneAfterTheOnesBeforeIt() throws Exception {
        try (Connection c = database("grouped-acks")) {
            int[] counts = RelayWriter.commit(c, List.of(ack("m1"), ack("m2"), ack("m1"), ack("unknown")));
            assertArrayEquals(new int[] {1, 1, 0, 0}, counts, "the second ack of m1 finds it done: the read path answers it");
            assertEquals("m1=" + DeliveryState.DONE + " m2=" + DeliveryState.DONE + " m3=" + DeliveryState.TAKEN, states(c));
            assertTrue(c.getAutoCommit(), "the pooled connection goes back as it came");
        }
    }

    @Test
    void aFailedBatchCommitsNothing() throws Exception {
        try (Connection c = database("grouped-acks-failed")) {
            GroupedUpdates.Update broken = new GroupedUpdates.Update("UPDATE redsyn_message SET state = ? WHERE no_such_column = 1",
                    List.of(DeliveryState.DONE));
            assertThrows(SQLException.class, () -> RelayWriter.commit(c, List.of(ack("m1"), broken)));
            assertEquals("m1=" + DeliveryState.TAKEN + " m2=" + DeliveryState.TAKEN + " m3=" + DeliveryState.TAKEN, states(c),
                    "the first ack of the failed batch was rolled back, so its request is not answered as done");
            assertTrue(c.getAutoCommit());
        }
    }
}
