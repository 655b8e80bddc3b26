package org.switchboard.redsyn.topic;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A published event (its id as the publisher chose it), so that publishing the same id again never copies it twice. */
@Entity
@Table(name = "REDSYN_TOPIC_EVENT")
public class TopicEventEntity {

    @Id
    @Column(length = 128)
    private String eventId;
    @Column(nullable = false, length = 200)
    private String topic;
    @Column(nullable = false, length = 128)
    private String thread;
    private long fromPersonId;
    private int copies;
    private boolean signedFlag;
    private long publishedAt;

    protected TopicEventEntity() {
    }

    public TopicEventEntity(String eventId, String topic, String thread, long fromPersonId, int copies, boolean signed, long publishedAt) {
        this.eventId = eventId;
        this.topic = topic;
        this.thread = thread;
        this.fromPersonId = fromPersonId;
        this.copies = copies;
        this.signedFlag = signed;
        this.publishedAt = publishedAt;
    }

    public String getEventId() {
        return eventId;
    }

    public String getTopic() {
        return topic;
    }

    public String getThread() {
        return thread;
    }

    public long getFromPersonId() {
        return fromPersonId;
    }

    public int getCopies() {
        return copies;
    }

    public boolean isSigned() {
        return signedFlag;
    }
}
