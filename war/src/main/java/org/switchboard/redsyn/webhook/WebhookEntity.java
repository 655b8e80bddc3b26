package org.switchboard.redsyn.webhook;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * An agent's webhook: where its messages are pushed and the secret they are signed with. The secret
 * is kept as given out (it keys an HMAC, so it cannot be stored hashed) and is never logged.
 */
@Entity
@Table(name = "REDSYN_WEBHOOK", indexes = @Index(name = "REDSYN_WEBHOOK_ORG", columnList = "ORG"))
@NamedQuery(name = "Webhook.countByOrg", query = "SELECT COUNT(w) FROM WebhookEntity w WHERE w.org = :org")
@NamedQuery(name = "Webhook.agentIds", query = "SELECT w.agentId FROM WebhookEntity w")
public class WebhookEntity {

    @Id
    private long agentId;

    @Column(name = "ORG", nullable = false, length = 64)
    private String org;

    @Column(nullable = false, length = 2000)
    private String url;

    @Column(nullable = false, length = 100)
    private String secret;

    private long createdAt;

    protected WebhookEntity() {
    }

    /** A webhook for an agent of {@code org}. */
    public WebhookEntity(long agentId, String org, String url, String secret, long createdAt) {
        this.agentId = agentId;
        this.org = org;
        this.url = url;
        this.secret = secret;
        this.createdAt = createdAt;
    }

    /** Points the webhook elsewhere with a new secret. */
    public void replace(String url, String secret, long now) {
        this.url = url;
        this.secret = secret;
        this.createdAt = now;
    }

    public long getAgentId() {
        return agentId;
    }

    public String getOrg() {
        return org;
    }

    public String getUrl() {
        return url;
    }

    public String getSecret() {
        return secret;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
