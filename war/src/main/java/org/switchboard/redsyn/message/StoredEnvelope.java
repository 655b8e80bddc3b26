package org.switchboard.redsyn.message;

/**
 * The stored fields a delivered envelope is rendered from, read as one projection so that a take
 * does not build (and track) whole message entities just to render them.
 */
public record StoredEnvelope(String messageId, String eventId, String kind, String fromAddress, String toAddress,
                             String thread, String replyTo, Long ts, long ttl, String bodyJson, String refsJson,
                             Long filesBytes, String filesSha256, boolean error, long expiresAt, int attempts,
                             boolean signed, String topic, String sigJson) {

    /**
     * The JPQL select list (alias {@code m}) whose rows {@link #fromRow} reads, in the record's order.
     * Used by the {@code Message.chosenBySeqs} named query.
     */
    public static final String COLUMNS = "m.messageId, m.eventId, m.kind, m.fromAddress, m.toAddress, m.thread, m.replyTo, "
            + "m.ts, m.ttl, m.bodyJson, m.refsJson, m.filesBytes, m.filesSha256, m.errorFlag, m.expiresAt, m.attempts, "
            + "m.signedFlag, m.topic, m.sigJson";

    /** A row of a query selecting {@link #COLUMNS}. */
    public static StoredEnvelope fromRow(Object[] r) {
        return new StoredEnvelope((String) r[0], (String) r[1], (String) r[2], (String) r[3], (String) r[4], (String) r[5],
                (String) r[6], r[7] == null ? null : ((Number) r[7]).longValue(), ((Number) r[8]).longValue(), (String) r[9],
                (String) r[10], r[11] == null ? null : ((Number) r[11]).longValue(), (String) r[12], (Boolean) r[13],
                ((Number) r[14]).longValue(), ((Number) r[15]).intValue(), (Boolean) r[16], (String) r[17], (String) r[18]);
    }

    /** This envelope as delivered by one more take (read before a lease, delivered after it). */
    public StoredEnvelope withOneMoreAttempt() {
        return new StoredEnvelope(messageId, eventId, kind, fromAddress, toAddress, thread, replyTo, ts, ttl, bodyJson, refsJson, filesBytes,
                filesSha256, error, expiresAt, attempts + 1, signed, topic, sigJson);
    }

    /** The id on the wire: the publisher's id for an event copy, the message id otherwise. */
    public String wireId() {
        return eventId != null ? eventId : messageId;
    }
}
