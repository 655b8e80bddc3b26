package org.switchboard.synapse.messageauth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The durable replay store: the {@code synapse_message_auth_nonce} table (V2 scripts), written with
 * plain auto-commit JDBC so a nonce is on disk before the frame it admits is handled. A store that
 * cannot write refuses the nonce (fail closed) rather than admit a frame a restart would reopen.
 */
public final class JdbcNonceStore implements NonceStore {

    private static final Logger LOG = Logger.getLogger(JdbcNonceStore.class.getName());
    private static final String INSERT = "INSERT INTO synapse_message_auth_nonce (nonce_id, expires_at) VALUES (?, ?)";

    private final DataSource dataSource;

    /** A store on {@code dataSource}. */
    public JdbcNonceStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Map<String, Double> live(double now) {
        Map<String, Double> live = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement select = c.prepareStatement(
                     "SELECT nonce_id, expires_at FROM synapse_message_auth_nonce WHERE expires_at >= ?")) {
            select.setDouble(1, now);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    live.put(rows.getString(1), rows.getDouble(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the message-auth replay store", e);
        }
        return live;
    }

    @Override
    public boolean record(String id, double expiresAt) {
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement(INSERT)) {
            insert.setString(1, id);
            insert.setDouble(2, expiresAt);
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return false; // the id is stored: a replay
            }
            LOG.warning("message-auth replay store write failed (" + e.getSQLState() + "); refusing the nonce");
            return false;
        }
    }

    @Override
    public void prune(double now) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement delete = c.prepareStatement("DELETE FROM synapse_message_auth_nonce WHERE expires_at < ?")) {
            delete.setDouble(1, now);
            delete.executeUpdate();
        } catch (SQLException e) {
            LOG.warning("message-auth replay store prune failed (" + e.getSQLState() + ")");
        }
    }
}
