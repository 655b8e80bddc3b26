package org.switchboard.redsyn.topic;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A topic, created by its first publication or subscription. */
@Entity
@Table(name = "REDSYN_TOPIC")
@NamedQuery(name = "Topic.byPath", query = "SELECT t FROM TopicEntity t WHERE t.path = :path")
@NamedQuery(name = "Topic.byOrgs", query = "SELECT t FROM TopicEntity t WHERE t.org IN :orgs ORDER BY t.path")
@NamedQuery(name = "Topic.subscribedFrom", query = "SELECT DISTINCT t FROM TopicEntity t, SubscriptionEntity s "
        + "WHERE s.topicId = t.id AND s.agentOrg IN :orgs ORDER BY t.path")
public class TopicEntity {

    @Id
    @SequenceGenerator(name = "redsyn_topic_seq", sequenceName = "REDSYN_TOPIC_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_topic_seq")
    private Long id;

    /** {@code org/team/name}. */
    @Column(nullable = false, unique = true, length = 200)
    private String path;
    @Column(nullable = false, length = 64)
    private String org;
    private long createdAt;

    protected TopicEntity() {
    }

    public TopicEntity(TopicAddress topic, long createdAt) {
        this.path = topic.path();
        this.org = topic.org();
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public String getPath() {
        return path;
    }

    public String getOrg() {
        return org;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
