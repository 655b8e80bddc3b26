package org.switchboard.redsyn.inbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.store.GroupedUpdates;
import org.switchboard.redsyn.store.RelayWriter;
import org.switchboard.schema.H2Scripts;

/**
 * A take's leases through the relay writer, on H2 with the migrated schema: each gets its row count once
 * committed, those the writer refuses are written by the take itself, and one failing alone is marked as
 * failed without costing the others their lease.
 */
class GroupedLeasesTest {

    private JdbcDataSource database;
    private Connection keepAlive;
    private RelayWriter writer;
    private GroupedLeases leases;

    @BeforeEach
    void start(org.junit.jupiter.api.TestInfo test) throws Exception {
        database = H2Scripts.memory("leases-" + test.getDisplayName().replaceAll("\\W", ""));
        database.setUser("sa");
        keepAlive = database.getConnection();
        try (Statement s = keepAlive.createStatement()) {
            H2Scripts.applyThrough(s, 8);
            for (int seq = 1; seq <= 3; seq++) {
                s.execute("INSERT INTO redsyn_message (seq, bodyjson, fromaddress, kind, messageid, thread, toaddress, toagentid, state, "
                        + "leaseuntil, expiresat, waiting, deadline, attempts) VALUES (" + seq + ", '{}', 'a/b/c/d', 'request', 'm" + seq
                        + "', 't', 'a/b/c/e', 3, " + DeliveryState.QUEUED + ", 0, 9000, 1, 9000, 0)");
            }
        }
        writer = RelayWriter.started(database, DaemonThreads.named("relay-writer-test"));
        leases = new GroupedLeases();
        leases.writer = writer;
    }

    @AfterEach
    void stop() throws SQLException {
        writer.stop();
        try (Statement s = keepAlive.createStatement()) {
            s.execute("DROP ALL OBJECTS");
        }
        keepAlive.close();
    }

    private static GroupedUpdates.Update lease(long seq) {
        return new GroupedUpdates.Update(MessageEntity.LEASE_SQL,
                List.of(DeliveryState.TAKEN, 40_000L, 40_000L, "n1", seq, 0, DeliveryState.QUEUED, DeliveryState.TAKEN, 10_000L));
    }

    private String states() throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement s = keepAlive.createStatement();
             ResultSet rs = s.executeQuery("SELECT seq, state, attempts FROM redsyn_message ORDER BY seq")) {
            while (rs.next()) {
                out.append(rs.getLong(1)).append('=').append(rs.getInt(2)).append('/').append(rs.getInt(3)).append(' ');
            }
        }
        return out.toString().trim();
    }

    @Test
    void eachLeaseGetsItsCountOnceTheWriterCommittedIt() throws Exception {
        assertArrayEquals(new int[] {1, 1, 0}, leases.commit(List.of(lease(1), lease(2), lease(1))),
                "the second lease of message 1 finds it taken");
        assertEquals("1=" + DeliveryState.TAKEN + "/1 2=" + DeliveryState.TAKEN + "/1 3=" + DeliveryState.QUEUED + "/0", states());
    }

    @Test
    void leasesTheWriterRefusesAreWrittenByTheTakeItself() throws Exception {
        writer.stop(); // a stopped writer refuses every update
        assertArrayEquals(new int[] {1, 0, 1}, leases.commit(List.of(lease(3), lease(3), lease(1))));
        assertEquals("1=" + DeliveryState.TAKEN + "/1 2=" + DeliveryState.QUEUED + "/0 3=" + DeliveryState.TAKEN + "/1", states());
    }

    @Test
    void aLeaseFailingAloneIsMarkedAndTheOthersKeepTheirs() throws Exception {
        GroupedUpdates.Update broken = new GroupedUpdates.Update("UPDATE redsyn_message SET state = ? WHERE no_such_column = 1",
                List.of(DeliveryState.TAKEN));
        assertArrayEquals(new int[] {1, GroupedLeases.FAILED, 1}, leases.commit(List.of(lease(1), broken, lease(2))));
        assertEquals("1=" + DeliveryState.TAKEN + "/1 2=" + DeliveryState.TAKEN + "/1 3=" + DeliveryState.QUEUED + "/0", states());
    }
}
