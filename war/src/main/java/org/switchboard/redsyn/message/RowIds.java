package org.switchboard.redsyn.message;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Ids of the rows the relay writer inserts for a request (its message's seq, a session it opens), drawn
 * from the entities' own sequences in the send's transaction, in blocks as JPA draws them ({@link IdBlock}).
 */
@ApplicationScoped
public class RowIds {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    private final IdBlock messages = new IdBlock(MessageEntity.ALLOCATION);
    private final IdBlock sessions = new IdBlock(SessionEntity.ALLOCATION);
    private volatile boolean postgres;
    private volatile boolean dialectKnown;

    /** A new message's seq. */
    public long nextMessageSeq() {
        return messages.next(() -> read(MessageEntity.SEQUENCE));
    }

    /** A new session's id. */
    public long nextSessionId() {
        return sessions.next(() -> read(SessionEntity.SEQUENCE));
    }

    /** The next value of a sequence: the end of a new block. */
    private long read(String sequence) {
        String sql = isPostgres() ? "SELECT nextval('" + sequence.toLowerCase(Locale.ROOT) + "')"
                : "SELECT NEXT VALUE FOR " + sequence;
        return ((Number) em.createNativeQuery(sql).getSingleResult()).longValue();
    }

    /** The two databases name the next value differently (the schema scripts exist for these two only). */
    private boolean isPostgres() {
        if (!dialectKnown) {
            try (Connection c = dataSource.getConnection()) {
                postgres = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot tell the database's kind", e);
            }
            dialectKnown = true;
        }
        return postgres;
    }
}
