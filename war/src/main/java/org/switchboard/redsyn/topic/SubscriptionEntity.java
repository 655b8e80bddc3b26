package org.switchboard.redsyn.topic;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

/** An agent listening to a topic, and the session of that agent its events land in. */
@Entity
@Table(name = "REDSYN_SUBSCRIPTION", uniqueConstraints = @UniqueConstraint(columnNames = {"TOPICID", "AGENTID"}))
@NamedQuery(name = "Subscription.byTopic", query = "SELECT s FROM SubscriptionEntity s WHERE s.topicId = :topic ORDER BY s.id")
@NamedQuery(name = "Subscription.find", query = "SELECT s FROM SubscriptionEntity s WHERE s.topicId = :topic AND s.agentId = :agent")
public class SubscriptionEntity {

    @Id
    @SequenceGenerator(name = "redsyn_subscription_seq", sequenceName = "REDSYN_SUBSCRIPTION_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_subscription_seq")
    private Long id;

    @Column(name = "TOPICID", nullable = false)
    private long topicId;
    @Column(name = "AGENTID", nullable = false)
    private long agentId;
    @Column(nullable = false, length = 320)
    private String agentAddress;
    @Column(nullable = false, length = 64)
    private String agentOrg;
    private long ownerPersonId;
    /** The agent's session for this topic's events; null until the first event. */
    private Long sessionId;
    private long createdAt;

    protected SubscriptionEntity() {
    }

    public SubscriptionEntity(long topicId, long agentId, String agentAddress, String agentOrg, long ownerPersonId, long createdAt) {
        this.topicId = topicId;
        this.agentId = agentId;
        this.agentAddress = agentAddress;
        this.agentOrg = agentOrg;
        this.ownerPersonId = ownerPersonId;
        this.createdAt = createdAt;
    }

    public long getAgentId() {
        return agentId;
    }

    public String getAgentAddress() {
        return agentAddress;
    }

    public String getAgentOrg() {
        return agentOrg;
    }

    public long getOwnerPersonId() {
        return ownerPersonId;
    }

    public Long getSessionId() {
        return sessionId;
    }

    public void setSessionId(Long sessionId) {
        this.sessionId = sessionId;
    }
}
