package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.PrePersist;
import jakarta.persistence.QueryHint;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.util.Arrays;
import java.util.List;

/**
 * A stored envelope and its delivery state (one row per receiving agent): queued, leased (taken, with
 * a deadline and an attempt count), done (acked or answered), abandoned, expired or cancelled.
 * {@code seq} orders a session's messages.
 *
 * <p>The state's indexes are keyed so that a state change touches as few of them as it can (each
 * index an update touches is a page path H2 writes at its commit, most of a cycle's CPU): the inbox
 * index holds {@code waiting} (queued or taken), which a lease leaves alone, and one {@code deadline}
 * index (the TTL while queued, the lease's end while taken, null once final) serves both sweeps.
 * Every statement that changes {@code state} keeps the two in step. The event id and the sender's
 * session, set on few rows and read rarely, are keyed in side tables instead ({@link MessageSideKeys}).
 */
@Entity
@Table(name = "REDSYN_MESSAGE", indexes = {
        @Index(name = "REDSYN_MSG_WAITING", columnList = "TOAGENTID, WAITING, SEQ"),
        @Index(name = "REDSYN_MSG_DEADLINE", columnList = "DEADLINE"),
        @Index(name = "REDSYN_MSG_THREAD", columnList = "THREAD, SEQ"),
        @Index(name = "REDSYN_MSG_TOSESSION", columnList = "TOSESSIONID"),
        @Index(name = "REDSYN_MSG_FROMORG", columnList = "FROMORG, CREATEDAT")})
@NamedQuery(name = "Message.byMessageId", query = "SELECT m FROM MessageEntity m WHERE m.messageId = :id")
@NamedQuery(name = "Message.chosenBySeqs", query = "SELECT " + StoredEnvelope.COLUMNS
        + ", m.seq FROM MessageEntity m WHERE m.seq IN :seqs ORDER BY m.seq")
@NamedQuery(name = "Message.inboxCandidates", query = "SELECT m.seq, m.messageId, m.state, m.leaseUntil, m.attempts, "
        + "m.expiresAt, m.orderKey, m.replyTo FROM MessageEntity m WHERE m.toAgentId = :agent AND m.waiting = 1 ORDER BY m.seq",
        hints = @QueryHint(name = MessageEntity.MAX_ROWS, value = MessageEntity.INBOX_CANDIDATES))
@NamedQuery(name = "Message.waiting", query = "SELECT m FROM MessageEntity m WHERE m.toAgentId = :agent AND m.waiting = 1 ORDER BY m.seq")
@NamedQuery(name = "Message.forAck", query = "SELECT " + MessageEntity.ACK_COLUMNS + " FROM MessageEntity m WHERE m.messageId IN :ids")
@NamedQuery(name = "Message.setState", query = "UPDATE MessageEntity m SET m.state = :to, m.doneAt = :now, " + MessageEntity.FINAL
        + " WHERE m.seq = :seq AND m.state = :from", hints = @QueryHint(name = MessageEntity.BIND, value = "true"))
@NamedQuery(name = "Message.endLease", query = "UPDATE MessageEntity m SET m.state = :to, m.doneAt = :now, " + MessageEntity.FINAL
        + " WHERE m.seq = :seq AND m.state = :taken AND m.leaseUntil <= :now", hints = @QueryHint(name = MessageEntity.BIND, value = "true"))
@NamedQuery(name = "Message.requeueLease", query = "UPDATE MessageEntity m SET m.state = :queued, m.doneAt = :now, m.deadline = m.expiresAt "
        + "WHERE m.seq = :seq AND m.state = :taken AND m.leaseUntil <= :now", hints = @QueryHint(name = MessageEntity.BIND, value = "true"))
@NamedQuery(name = "Message.expire", query = "UPDATE MessageEntity m SET m.state = :to, m.doneAt = :now, " + MessageEntity.FINAL + " "
        + "WHERE m.seq = :seq AND m.state = :queued AND m.expiresAt <= :now", hints = @QueryHint(name = MessageEntity.BIND, value = "true"))
@NamedQuery(name = "Message.leaseExpired", query = "SELECT m FROM MessageEntity m WHERE m.deadline > 0 AND m.deadline <= :now "
        + "AND m.state = :taken ORDER BY m.deadline",
        hints = @QueryHint(name = MessageEntity.MAX_ROWS, value = MessageEntity.SWEEP_BATCH))
@NamedQuery(name = "Message.ttlExpired", query = "SELECT m FROM MessageEntity m WHERE m.deadline > 0 AND m.deadline <= :now "
        + "AND m.state = :queued ORDER BY m.deadline",
        hints = @QueryHint(name = MessageEntity.MAX_ROWS, value = MessageEntity.SWEEP_BATCH))
@NamedQuery(name = "Message.thread", query = "SELECT m FROM MessageEntity m WHERE m.thread = :thread ORDER BY m.seq")
@NamedQuery(name = "Message.toSession", query = "SELECT m FROM MessageEntity m WHERE m.toSessionId = :session ORDER BY m.seq")
@NamedQuery(name = "Message.forAckEvents", query = "SELECT " + MessageEntity.ACK_COLUMNS
        + " FROM MessageEntity m, MessageEventEntity e WHERE e.eventId IN :ids AND m.seq = e.seq")
@NamedQuery(name = "Message.countSince", query = "SELECT COUNT(m) FROM MessageEntity m WHERE m.fromOrg = :org AND m.createdAt >= :since AND m.notice = false")
public class MessageEntity {

    /**
     * Bulk updates bind their parameters (EclipseLink sends them as literal SQL otherwise, which H2
     * parses anew each time). Declared on the named query, not set per call: a hint set on each
     * execution made EclipseLink prepare the query again every time (a quarter of a take's CPU).
     */
    static final String BIND = "eclipselink.jdbc.bind-parameters";
    /**
     * What every update into a final state also sets: out of the inbox index, out of the deadline index.
     * (A {@code deadline > 0} lower bound in the sweeps keeps them off the nulls of all history.)
     */
    public static final String FINAL = "m.waiting = 0, m.deadline = NULL";
    /** A fixed row limit, declared with the query: setting one per call also made EclipseLink prepare it again. */
    static final String MAX_ROWS = "eclipselink.jdbc.max-rows";
    /**
     * What an ack reads of each message it names: seq, message id, event id, receiving agent, state,
     * attempts, file size. A projection: reading whole entities (37 columns, three of them LOBs) only
     * to check their state was half of an ack's own CPU.
     */
    public static final String ACK_COLUMNS = "m.seq, m.messageId, m.eventId, m.toAgentId, m.state, m.attempts, m.filesBytes";
    /**
     * An ack's usual case in one SQL statement, for the grouped acks' writer, which runs it over plain JDBC
     * outside JPA (parameters: done, now, message id, agent, taken): the named message, taken by this agent,
     * neither a topic copy (acked by its event id) nor carrying files (deleted with the ack). Anything else it
     * leaves alone (0 rows) for the read-then-update path, which tells all the other outcomes apart. It sets
     * what {@link #FINAL} sets, in SQL.
     */
    public static final String ACK_TAKEN_SQL = "UPDATE REDSYN_MESSAGE SET STATE = ?, DONEAT = ?, WAITING = 0, DEADLINE = NULL"
            + " WHERE MESSAGEID = ? AND TOAGENTID = ? AND STATE = ? AND EVENTID IS NULL AND FILESBYTES IS NULL";
    /**
     * A take's lease of one message, in SQL for the relay writer (parameters: taken, until, until,
     * node, seq, attempts read, queued, taken, now): only while it is queued, or taken under a lease that has
     * run out, so two takes never both lease it, and only while its attempts are still those the take read,
     * so the take delivers what it read with one more attempt. Counts the attempt; the deadline becomes the
     * lease's end.
     */
    public static final String LEASE_SQL = "UPDATE REDSYN_MESSAGE SET STATE = ?, LEASEUNTIL = ?, DEADLINE = ?, ATTEMPTS = ATTEMPTS + 1,"
            + " TAKENBY = ? WHERE SEQ = ? AND ATTEMPTS = ? AND (STATE = ? OR (STATE = ? AND LEASEUNTIL <= ?))";
    /**
     * A new message's row in SQL, for the relay writer, which inserts a request's rows over plain JDBC with
     * other requests' writes (parameters: {@link #insertParams()}). {@code MessageInsertTest} checks it names
     * every mapped column.
     */
    public static final String INSERT_SQL = "INSERT INTO REDSYN_MESSAGE (SEQ, MESSAGEID, KIND, FROMAGENTID, FROMADDRESS,"
            + " FROMSESSIONID, FROMPERSONID, FROMORG, TOAGENTID, TOADDRESS, TOSESSIONID, TOPERSONID, TOORG, THREAD, REPLYTO, TS,"
            + " TTL, EXPIRESAT, CREATEDAT, BODYJSON, REFSJSON, FILESBYTES, FILESSHA256, ERRORFLAG, SIGNEDFLAG, ENCRYPTED, SIGJSON,"
            + " NOTICE, REPLIED, STATE, WAITING, DEADLINE, ATTEMPTS, LEASEUNTIL, TAKENBY, DONEAT, ORDERKEY, EVENTID, TOPIC)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?)";
    /** The sequence of {@code seq}; its increment is {@link #ALLOCATION} (schema V1). */
    public static final String SEQUENCE = "REDSYN_MESSAGE_SEQ";
    /** Seqs taken from the sequence at a time: a read of it hands out the block that ends at the value read. */
    public static final int ALLOCATION = 500;
    /** How many waiting messages a take considers at most. */
    public static final String INBOX_CANDIDATES = "500";
    /** How many expired leases, and how many expired queued messages, one sweep batch handles at most. */
    public static final String SWEEP_BATCH = "200";

    @Id
    @SequenceGenerator(name = "redsyn_msg_seq", sequenceName = MessageEntity.SEQUENCE, allocationSize = MessageEntity.ALLOCATION)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_msg_seq")
    @Column(name = "SEQ")
    private Long seq;

    @Column(nullable = false, unique = true, length = 128)
    private String messageId;

    @Column(nullable = false, length = 10)
    private String kind;

    private long fromAgentId;
    @Column(nullable = false, length = 320)
    private String fromAddress;
    @Column(name = "FROMSESSIONID")
    private Long fromSessionId;
    /** Sending person; null for the relay's own notices. */
    private Long fromPersonId;
    @Column(name = "FROMORG", length = 64)
    private String fromOrg;

    @Column(name = "TOAGENTID")
    private long toAgentId;
    @Column(nullable = false, length = 320)
    private String toAddress;
    @Column(name = "TOSESSIONID")
    private Long toSessionId;
    private long toPersonId;
    @Column(length = 64)
    private String toOrg;

    @Column(name = "THREAD", nullable = false, length = 128)
    private String thread;
    @Column(length = 128)
    private String replyTo;
    private Long ts;
    private long ttl;
    @Column(name = "EXPIRESAT")
    private long expiresAt;
    @Column(name = "CREATEDAT")
    private long createdAt;

    @Lob
    @Column(nullable = false)
    private String bodyJson;
    @Lob
    private String refsJson;
    private Long filesBytes;
    @Column(length = 64)
    private String filesSha256;
    private boolean errorFlag;
    private boolean signedFlag;
    private boolean encrypted;
    @Lob
    private String sigJson;
    /** A relay notice (not delivered ...): never itself reported when undeliverable. */
    private boolean notice;
    private boolean replied;

    @Column(name = "STATE")
    private int state;
    /**
     * 1 while queued or taken, else 0 (the inbox index's key: a lease does not change it, so it does not
     * touch that index). An integer: EclipseLink binds a boolean as 1 or 0, which H2 does not compare with BOOLEAN.
     */
    @Column(name = "WAITING", nullable = false)
    private int waiting = 1;
    /** When the sweep must look at it: the TTL's end while queued, the lease's end while taken; null once final. */
    @Column(name = "DEADLINE")
    private Long deadline;
    private int attempts;
    @Column(name = "LEASEUNTIL")
    private long leaseUntil;
    @Column(length = 64)
    private String takenBy;
    private long doneAt;
    /** Ordering group inside the receiving agent: its session, or its thread when it has none. */
    @Column(length = 140)
    private String orderKey;
    /** On a topic event's copy: the publisher's id (delivered as {@code id}) and the topic. */
    @Column(name = "EVENTID", length = 128)
    private String eventId;
    @Column(length = 200)
    private String topic;

    protected MessageEntity() {
    }

    /** A new queued message. */
    public MessageEntity(String messageId, Kind kind, long createdAt) {
        this.messageId = messageId;
        this.kind = kind.wire();
        this.createdAt = createdAt;
    }

    /** Sets the sending side. */
    public MessageEntity from(long agentId, String address, Long sessionId, Long personId, String org) {
        this.fromAgentId = agentId;
        this.fromAddress = address;
        this.fromSessionId = sessionId;
        this.fromPersonId = personId;
        this.fromOrg = org;
        return this;
    }

    /** Sets the receiving side. */
    public MessageEntity to(long agentId, String address, Long sessionId, long personId, String org) {
        this.toAgentId = agentId;
        this.toAddress = address;
        this.toSessionId = sessionId;
        this.toPersonId = personId;
        this.toOrg = org;
        this.orderKey = sessionId != null ? "s" + sessionId : null;
        return this;
    }

    /** Sets the content. */
    public MessageEntity content(String thread, String replyTo, Long ts, long ttl, String bodyJson, String refsJson,
                                 boolean error, boolean encrypted) {
        this.thread = thread;
        this.replyTo = replyTo;
        this.ts = ts;
        this.ttl = ttl;
        this.expiresAt = createdAt + ttl * 1000L;
        this.bodyJson = bodyJson;
        this.refsJson = refsJson;
        this.errorFlag = error;
        this.encrypted = encrypted;
        if (orderKey == null) {
            orderKey = "t" + thread;
        }
        return this;
    }

    /** Sets the thread (before the content). */
    public MessageEntity thread(String thread) {
        this.thread = thread;
        if (orderKey == null) {
            orderKey = "t" + thread;
        }
        return this;
    }

    /** Records the attached files' size and digest (the zip itself is a {@link FileEntity}). */
    public MessageEntity files(long bytes, String sha256) {
        this.filesBytes = bytes;
        this.filesSha256 = sha256;
        return this;
    }

    /** Records a verified signature, as delivered. */
    public MessageEntity signature(boolean signed, String sigJson) {
        this.signedFlag = signed;
        this.sigJson = sigJson;
        return this;
    }

    /** Marks the relay's own notices. */
    public MessageEntity asNotice() {
        this.notice = true;
        return this;
    }

    /** A reply closes its request: done unless it already ended otherwise. */
    public void closeByReply(long now) {
        this.replied = true;
        if (state == DeliveryState.QUEUED || state == DeliveryState.TAKEN) {
            finish(DeliveryState.DONE, now);
        }
    }

    /** Ends delivery in a final state. */
    public void finish(int finalState, long now) {
        this.state = finalState;
        this.doneAt = now;
        this.waiting = 0;
        this.deadline = null;
    }

    /** Back to the queue after a lease ran out. */
    public void requeue() {
        this.state = DeliveryState.QUEUED;
        this.takenBy = null;
        this.waiting = 1;
        this.deadline = expiresAt;
    }

    /** Gives a row the relay writer inserts its seq, drawn from this entity's sequence ({@link #SEQUENCE}). */
    public void assignSeq(long seq) {
        this.seq = seq;
    }

    /** The values of {@link #INSERT_SQL}, in its order, with the index keys a persist would set. */
    public List<Object> insertParams() {
        if (seq == null) {
            throw new IllegalStateException("message " + messageId + " has no seq yet");
        }
        indexKeys();
        return Arrays.asList(seq, messageId, kind, fromAgentId, fromAddress, fromSessionId, fromPersonId, fromOrg, toAgentId,
                toAddress, toSessionId, toPersonId, toOrg, thread, replyTo, ts, ttl, expiresAt, createdAt, bodyJson, refsJson,
                filesBytes, filesSha256, errorFlag, signedFlag, encrypted, sigJson, notice, replied, state, waiting, deadline,
                attempts, leaseUntil, takenBy, doneAt, orderKey, eventId, topic);
    }

    /** A new row's index keys follow from its state and TTL, whatever built it (sends, notices, event copies). */
    @PrePersist
    void indexKeys() {
        waiting = state == DeliveryState.QUEUED || state == DeliveryState.TAKEN ? 1 : 0;
        deadline = state == DeliveryState.QUEUED ? Long.valueOf(expiresAt) : state == DeliveryState.TAKEN ? Long.valueOf(leaseUntil) : null;
    }

    public void markReplied() {
        this.replied = true;
    }

    /** Marks this row as one subscriber's copy of event {@code eventId} published to {@code topic}. */
    public MessageEntity event(String eventId, String topic) {
        this.eventId = eventId;
        this.topic = topic;
        return this;
    }

    /** The fields the delivered envelope is rendered from. */
    public StoredEnvelope envelope() {
        return new StoredEnvelope(messageId, eventId, kind, fromAddress, toAddress, thread, replyTo, ts, ttl, bodyJson, refsJson,
                filesBytes, filesSha256, errorFlag, expiresAt, attempts, signedFlag, topic, sigJson);
    }

    /** The id on the wire: the publisher's id for an event copy, the message id otherwise. */
    public String wireId() {
        return eventId != null ? eventId : messageId;
    }

    /** On a topic event's copy, the publisher's id; null otherwise. */
    public String getEventId() {
        return eventId;
    }

    /** The topic of an event copy ({@code topic:org/team/name}), null otherwise. */
    public String getTopic() {
        return topic;
    }

    public Long getSeq() {
        return seq;
    }

    public String getMessageId() {
        return messageId;
    }

    public Kind getKind() {
        return Kind.fromWire(kind);
    }

    public long getFromAgentId() {
        return fromAgentId;
    }

    public String getFromAddress() {
        return fromAddress;
    }

    public Long getFromSessionId() {
        return fromSessionId;
    }

    public Long getFromPersonId() {
        return fromPersonId;
    }

    public String getFromOrg() {
        return fromOrg;
    }

    public long getToAgentId() {
        return toAgentId;
    }

    public String getToAddress() {
        return toAddress;
    }

    public Long getToSessionId() {
        return toSessionId;
    }

    public long getToPersonId() {
        return toPersonId;
    }

    public String getToOrg() {
        return toOrg;
    }

    public String getThread() {
        return thread;
    }

    public String getReplyTo() {
        return replyTo;
    }

    public Long getTs() {
        return ts;
    }

    public long getTtl() {
        return ttl;
    }

    public long getExpiresAt() {
        return expiresAt;
    }

    public long getCreatedAt() {
        return createdAt;
    }

    public String getBodyJson() {
        return bodyJson;
    }

    public String getRefsJson() {
        return refsJson;
    }

    public Long getFilesBytes() {
        return filesBytes;
    }

    public String getFilesSha256() {
        return filesSha256;
    }

    public boolean isError() {
        return errorFlag;
    }

    public boolean isSigned() {
        return signedFlag;
    }

    public boolean isEncrypted() {
        return encrypted;
    }

    public String getSigJson() {
        return sigJson;
    }

    public boolean isNotice() {
        return notice;
    }

    public boolean isReplied() {
        return replied;
    }

    public int getState() {
        return state;
    }

    public int getAttempts() {
        return attempts;
    }

    /** Whether it is queued or taken, as the inbox index holds it. */
    public boolean isWaiting() {
        return waiting == 1;
    }

    /** The sweep's deadline as the deadline index holds it (null once final). */
    public Long getDeadline() {
        return deadline;
    }

    public long getLeaseUntil() {
        return leaseUntil;
    }
}
