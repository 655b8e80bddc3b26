package org.switchboard.journal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * JDBC work in one local transaction on a connection the caller holds (the group writers' commits, outside
 * any JTA transaction): committed when the work returns, rolled back and rethrown when it throws, and the
 * connection's auto-commit mode restored either way before it goes back to its pool.
 */
public final class LocalTransaction {

    /** Statements run inside the transaction. */
    @FunctionalInterface
    public interface Work<T> {
        /** Runs on {@code connection}, whose transaction is then committed. */
        T run(Connection connection) throws SQLException;
    }

    private LocalTransaction() {
    }

    /** Runs {@code work} and commits; on any failure rolls back and throws, having committed nothing. */
    public static <T> T run(Connection connection, Work<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
