package org.switchboard.redsyn.message;

import java.util.ArrayList;
import java.util.List;
import org.switchboard.redsyn.store.GroupedUpdates.Update;

/**
 * The rows a request's send writes, as SQL for the relay writer, which commits them as one unit with other
 * requests' writes: a session it opens, its thread's mapping, its files, the message and its side rows.
 * The send decides them in a read; nothing is written until the unit commits. {@code RequestRowsTest}
 * checks each statement against the schema and against what JPA would have written.
 */
public final class RequestRows {

    /** A session the relay opens (parameters: id, agent, thread, created at). */
    static final String SESSION_SQL = "INSERT INTO REDSYN_SESSION (ID, AGENTID, THREAD, TITLE, CLOSED, CREATEDAT)"
            + " VALUES (?, ?, ?, NULL, FALSE, ?)";
    /** A thread's first mapping to a session (parameters: key, session). */
    static final String THREAD_INSERT_SQL = "INSERT INTO REDSYN_THREAD_SESSION (AGENTTHREAD, SESSIONID) VALUES (?, ?)";
    /** A thread moved to another session (parameters: session, key); as before, the last send to move it wins. */
    static final String THREAD_MOVE_SQL = "UPDATE REDSYN_THREAD_SESSION SET SESSIONID = ? WHERE AGENTTHREAD = ?";
    /** A request's files (parameters: message id, org, bytes, zip). */
    static final String FILE_SQL = "INSERT INTO REDSYN_FILE (MESSAGEID, ORG, BYTES, ZIP) VALUES (?, ?, ?, ?)";

    private final List<Update> rows = new ArrayList<>(4);

    /** Opens session {@code id} of agent {@code agentId} for {@code thread}. */
    public RequestRows openSession(long id, long agentId, String thread, long createdAt) {
        rows.add(new Update(SESSION_SQL, List.of(id, agentId, thread, createdAt)));
        return this;
    }

    /** Maps the agent's thread to a session for the first time (fails the unit if a concurrent send did first). */
    public RequestRows mapThread(long agentId, String thread, long sessionId) {
        rows.add(new Update(THREAD_INSERT_SQL, List.of(ThreadSessionEntity.key(agentId, thread), sessionId)));
        return this;
    }

    /** Moves the agent's thread to another session. */
    public RequestRows moveThread(long agentId, String thread, long sessionId) {
        rows.add(new Update(THREAD_MOVE_SQL, List.of(sessionId, ThreadSessionEntity.key(agentId, thread))));
        return this;
    }

    /** Stores the request's files. */
    public RequestRows files(String messageId, String org, byte[] zip) {
        rows.add(new Update(FILE_SQL, List.of(messageId, org, (long) zip.length, zip)));
        return this;
    }

    /** Stores the message (its seq assigned) and the side rows of the keys it has ({@link MessageSideKeys}). */
    public RequestRows message(MessageEntity m) {
        rows.add(new Update(MessageEntity.INSERT_SQL, m.insertParams()));
        rows.addAll(MessageSideKeys.inserts(m));
        return this;
    }

    /** Adds another row (a sealed request's reservation). */
    public RequestRows add(Update row) {
        rows.add(row);
        return this;
    }

    /** The statements, in order. */
    public List<Update> statements() {
        return List.copyOf(rows);
    }
}
