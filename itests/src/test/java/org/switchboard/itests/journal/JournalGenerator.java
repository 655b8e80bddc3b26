package org.switchboard.itests.journal;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.switchboard.schema.SchemaMigrator;
import org.switchboard.synapse.delivery.DeliveryDigests;

/**
 * Writes a large, valid journal into a stopped hub's data directory without a running hub: the
 * schema through the hub's own migration scripts, then cycles of realistic events (broadcast and
 * directed chats to names and roles, acks as watermarks, receipt requests, claims and releases, board tasks and notes,
 * idempotency records, session-bound deliveries from acceptance to completion). What the hub must
 * rebuild from it is returned as {@link Expected}.
 */
public final class JournalGenerator {

    /** Events per cycle; a journal holds whole cycles. */
    public static final int CYCLE = 20;
    /** Directed chats to {@link #LATE_RECEIVER} left unacked at the end (mailbox replay). */
    public static final int UNACKED_AT_END = 25;
    /** Claims still held at the end (their release never comes). */
    public static final int LIVE_CLAIMS = 40;
    /** Board tasks; every cycle rewrites one of them. */
    public static final int BOARD_TASKS = 500;
    /** Receiver of the trailing unacked chats. */
    public static final String LATE_RECEIVER = "gen/late";
    private static final int AGENTS = 10;
    private static final int BATCH = 5_000;

    /** What the generated journal leaves for the hub to rebuild. */
    public record Expected(long lastSeq, long lastMsgId, int liveClaims, int boardTasks, long firstUnackedSeq,
                           int unacked) {
    }

    private final String hubId;
    private final double startedAt;
    private long seq;
    private long msgId;

    /** A generator for a hub that will run as {@code hubId}, events stamped from {@code startedAt} (epoch seconds). */
    public JournalGenerator(String hubId, double startedAt) {
        this.hubId = hubId;
        this.startedAt = startedAt;
    }

    /** Creates the schema in {@code dataDir}'s H2 file and writes about {@code events} events (whole cycles). */
    public Expected write(Path dataDir, long events) throws SQLException {
        String url = "jdbc:h2:file:" + dataDir.resolve("db/switchboard").toAbsolutePath();
        new SchemaMigrator(SchemaMigrator.class.getClassLoader()).migrate(new OneUrl(url));
        try (Connection db = OfflineDatabase.openUrl(url)) {
            db.setAutoCommit(false);
            try (PreparedStatement setting = db.prepareStatement(
                    "INSERT INTO journal_setting (setting_name, setting_value) VALUES ('hub_id', ?)")) {
                setting.setString(1, hubId);
                setting.executeUpdate();
            }
            try (PreparedStatement insert = db.prepareStatement(
                    "INSERT INTO journal_event (seq, appended_at, kind, payload) VALUES (?, ?, ?, ?)")) {
                long cycles = Math.max(1, events / CYCLE);
                for (long c = 0; c < cycles; c++) {
                    cycle(insert, c, cycles);
                    if (seq % BATCH < CYCLE) {
                        insert.executeBatch();
                        db.commit();
                    }
                }
                int firstUnacked = 0;
                for (int i = 0; i < UNACKED_AT_END; i++) {
                    long at = chat(insert, "gen/a0", LATE_RECEIVER, "late #" + i, null);
                    if (i == 0) {
                        firstUnacked = (int) at;
                    }
                }
                insert.executeBatch();
                db.commit();
                return new Expected(seq, msgId, LIVE_CLAIMS, (int) Math.min(BOARD_TASKS, cycles), firstUnacked,
                        UNACKED_AT_END);
            }
        }
    }

    private void cycle(PreparedStatement insert, long c, long cycles) throws SQLException {
        String a = "gen/a" + (c % AGENTS);
        String b = "gen/a" + ((c + 1) % AGENTS);
        String task = "T-" + c;
        chat(insert, a, "all", "status " + c, null);
        long directed = chat(insert, a, b, "please look at " + task, null);
        watermark(insert, b, directed);
        long receipted = chat(insert, b, a, "done with " + task, "cm-" + c);
        add(insert, "delivery_receipt_requested", "{\"sender\":\"" + b + "\",\"target\":\"" + a + "\",\"message_id\":"
                + msgId + ",\"client_msg_id\":\"cm-" + c + "\"}");
        watermark(insert, a, receipted);
        chat(insert, b, "all", "heartbeat note " + c, null);
        boolean live = c >= cycles - LIVE_CLAIMS;
        double now = at();
        add(insert, "claim", "{\"task_id\":\"" + task + "\",\"owner\":\"" + a + "\",\"note\":\"working\",\"claimed_at\":"
                + now + ",\"lease_expires_at\":" + (live ? now + 7 * 86_400 : now + 600) + ",\"status\":\"claimed\","
                + "\"data_ref\":\"\",\"worktree\":\"\",\"paths\":[\"src/" + task + "/**\"],\"epoch\":" + (c + 1)
                + ",\"version\":1,\"checkpoint\":\"\",\"quota_principal\":\"" + a + "\"}");
        add(insert, "ledger_progress", "{\"task_id\":\"" + task + "\",\"author\":\"" + a
                + "\",\"kind\":\"note\",\"text\":\"progress on " + task + "\",\"posted_at\":" + now + "}");
        if (live) {
            chat(insert, a, "all", "still on " + task, null);
        } else {
            add(insert, "release", "{\"task_id\":\"" + task + "\"}");
        }
        long third = chat(insert, a, b, "handing over " + task, null);
        watermark(insert, b, third);
        add(insert, "idempotency", "{\"operation_key\":\"" + a + "\\u0000ledger_task\\u0000k-" + c + "\",\"key\":\"" + a
                + "\\u0000ledger_task\\u0000k-" + c + "\",\"request_digest\":\"" + "0".repeat(64)
                + "\",\"response\":{\"type\":\"ledger_task_posted\",\"task_id\":\"B-" + (c % BOARD_TASKS) + "\"},"
                + "\"event_count\":1}");
        add(insert, "ledger_task", "{\"task_id\":\"B-" + (c % BOARD_TASKS) + "\",\"title\":\"board task " + (c % BOARD_TASKS)
                + "\",\"description\":\"generated\",\"depends_on\":[],\"status\":\"open\",\"suggested_owner\":\"" + b
                + "\",\"project\":\"gen\",\"version\":" + (c / BOARD_TASKS + 1) + ",\"created_by\":\"" + a
                + "\",\"created_at\":" + startedAt + ",\"updated_at\":" + now + "}");
        delivery(insert, a, b, c);
        chat(insert, b, "all", "ok " + c, null);
        chat(insert, a, "gen/reviewer", "review " + task, null);
    }

    /** Four events: accepted, queued, completed (a stored notification) and that notification delivered. */
    private void delivery(PreparedStatement insert, String sender, String target, long c) throws SQLException {
        String requestId = "req-" + c;
        String key = DeliveryDigests.operationKey(hubId, sender, requestId);
        double now = at();
        add(insert, "delivery_intent_accepted", "{\"profile\":4,\"operation_key\":\"" + key + "\",\"digest\":\""
                + "1".repeat(64) + "\",\"request\":{\"sender\":\"" + sender + "\",\"origin_hub\":\"" + hubId
                + "\",\"receiving_hub\":\"" + hubId + "\",\"request_id\":\"" + requestId + "\",\"idempotency_key\":\"idem-" + c
                + "\",\"target\":\"" + target + "\",\"target_incarnation\":\"inc-1\",\"mode\":\"queue\",\"allowed_fallbacks\":[],"
                + "\"task_id\":\"T-" + c + "\",\"body\":\"do the thing " + c + "\",\"deadline\":" + (now + 3600) + ",\"profile\":4}}");
        add(insert, "delivery_intent_queued", "{\"profile\":4,\"operation_key\":\"" + key + "\",\"ordinal\":1,\"stage\":\"queued\","
                + "\"notification_id\":\"delivery:" + key + ":1\",\"selected_mode\":\"queue\",\"quality\":\"exact\",\"offered_at\":"
                + now + "}");
        long completed = add(insert, "delivery_intent_transition", "{\"profile\":4,\"operation_key\":\"" + key
                + "\",\"ordinal\":2,\"prior_stage\":\"queued\",\"stage\":\"completed\",\"cancel_requested\":false,"
                + "\"boundary_delivered\":true,\"explicitly_acknowledged\":true,\"mutation_id\":\"mut-" + c
                + "\",\"mutation_digest\":\"" + "2".repeat(64) + "\",\"actor\":\"" + target + "\",\"source\":\"recipient\","
                + "\"evidence\":{},\"notification_id\":\"delivery:" + key + ":2\",\"audience\":\"" + sender
                + "\",\"notified_at\":" + now + "}");
        add(insert, "delivery_notifications_delivered", "{\"profile\":4,\"seqs\":[" + completed + "]}");
    }

    private long chat(PreparedStatement insert, String sender, String target, String text, String clientMsgId)
            throws SQLException {
        msgId++;
        return add(insert, "chat", "{\"type\":\"chat\",\"sender\":\"" + sender + "\",\"target\":\"" + target
                + "\",\"payload\":\"" + text + "\",\"timestamp\":" + at() + ",\"hub_id\":\"" + hubId + "\",\"msg_id\":" + msgId
                + (clientMsgId == null ? "" : ",\"client_msg_id\":\"" + clientMsgId + "\"") + "}");
    }

    private void watermark(PreparedStatement insert, String identity, long through) throws SQLException {
        add(insert, "mailbox_watermark", "{\"identity\":\"" + identity + "\",\"through_seq\":" + through
                + ",\"source\":\"ack\"}");
    }

    private long add(PreparedStatement insert, String kind, String payload) throws SQLException {
        seq++;
        insert.setLong(1, seq);
        insert.setDouble(2, at());
        insert.setString(3, kind);
        insert.setString(4, payload);
        insert.addBatch();
        return seq;
    }

    /** Event time: 10 ms apart, ending before now. */
    private double at() {
        return startedAt + seq * 0.01;
    }

    /** The migration's data source: one URL, the hub's credentials, the Micro jar's driver. */
    private record OneUrl(String url) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return OfflineDatabase.openUrl(url);
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return OfflineDatabase.openUrl(url);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
