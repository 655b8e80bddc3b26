package org.switchboard.redsyn.message;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import org.switchboard.redsyn.store.GroupedUpdates;

/**
 * Stores a message row together with the side rows that carry its rarely set, rarely read keys (schema
 * V8): a topic copy's event id and the sender's session. As indexes of {@code REDSYN_MESSAGE} they cost
 * every send a page path at its commit even when null (most sends); as side tables only the sends that
 * have them pay. Every JPA insert of a message goes through {@link #persist} ({@code MessageSideKeysTest}
 * fails on one elsewhere); a request's SQL insert writes them as {@link #inserts}.
 */
public final class MessageSideKeys {

    /** Side row in SQL: a topic copy's event id (parameters: event id, seq). */
    static final String EVENT_KEY_SQL = "INSERT INTO REDSYN_MESSAGE_EVENT (EVENTID, SEQ) VALUES (?, ?)";
    /** Side row in SQL: the sender's session (parameters: session, seq). */
    static final String FROM_SESSION_KEY_SQL = "INSERT INTO REDSYN_MESSAGE_FROM_SESSION (SESSIONID, SEQ) VALUES (?, ?)";

    private MessageSideKeys() {
    }

    /** Persists {@code m} and its side rows (its {@code seq} is assigned by the persist, from the sequence). */
    public static void persist(EntityManager em, MessageEntity m) {
        em.persist(m);
        for (Object row : rows(m)) {
            em.persist(row);
        }
    }

    /** The side rows of {@link #rows} as SQL inserts, for a message the relay writer stores. */
    static List<GroupedUpdates.Update> inserts(MessageEntity m) {
        List<GroupedUpdates.Update> inserts = new ArrayList<>(2);
        for (Object row : rows(m)) {
            if (row instanceof MessageEventEntity e) {
                inserts.add(new GroupedUpdates.Update(EVENT_KEY_SQL, List.of(e.eventId(), e.seq())));
            } else if (row instanceof MessageFromSessionEntity f) {
                inserts.add(new GroupedUpdates.Update(FROM_SESSION_KEY_SQL, List.of(f.sessionId(), f.seq())));
            } else {
                throw new IllegalStateException("no SQL insert for side row " + row.getClass().getSimpleName());
            }
        }
        return inserts;
    }

    /** The side rows of a message whose {@code seq} is set. */
    static List<Object> rows(MessageEntity m) {
        List<Object> rows = new ArrayList<>(2);
        if (m.getEventId() != null) {
            rows.add(new MessageEventEntity(m.getEventId(), m.getSeq()));
        }
        if (m.getFromSessionId() != null) {
            rows.add(new MessageFromSessionEntity(m.getFromSessionId(), m.getSeq()));
        }
        return rows;
    }
}
