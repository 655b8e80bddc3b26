package org.switchboard.redsyn.message;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;

/**
 * Stores a message row together with the side rows that carry its rarely set, rarely read keys (schema
 * V8): a topic copy's event id and the sender's session. As indexes of {@code REDSYN_MESSAGE} they cost
 * every send a page path at its commit even when null (most sends); as side tables only the sends that
 * have them pay. Every JPA insert of a message goes through {@link #persist} ({@code MessageSideKeysTest}
 * fails on one elsewhere); a request's SQL insert writes them in {@link RequestRows#message}.
 */
public final class MessageSideKeys {

    private MessageSideKeys() {
    }

    /** Persists {@code m} and its side rows (its {@code seq} is assigned by the persist, from the sequence). */
    public static void persist(EntityManager em, MessageEntity m) {
        em.persist(m);
        for (Object row : rows(m)) {
            em.persist(row);
        }
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
