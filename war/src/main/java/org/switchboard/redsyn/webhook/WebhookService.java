package org.switchboard.redsyn.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Map;
import org.switchboard.json.Jsons;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.plan.Plan;
import org.switchboard.redsyn.message.MessageQueued;

/** Setting and removing an agent's webhook: URL rules, the plan's webhook count, the secret given out once. */
@ApplicationScoped
@Transactional
public class WebhookService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    AgentService agents;

    @Inject
    OrganisationService directory;

    @Inject
    WebhookRegistry registry;

    @Inject
    RedsynConfig config;

    @Inject
    Event<MessageQueued> queued;

    /** The outcome of a set: whether the webhook is new, and the reply carrying the secret. */
    public record Set(boolean created, JsonObject reply) {
    }

    /** {@code PUT /agents/.../webhook}: points the agent's deliveries at {@code url} with a new secret. */
    public Set set(Caller caller, Address address, String url) {
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        String checked = WebhookUrls.check(url, config.webhookAllowLoopbackHttp()).toString();
        long now = System.currentTimeMillis();
        String secret = WebhookSignature.newSecret();
        WebhookEntity hook = em.find(WebhookEntity.class, agent.id());
        boolean created = hook == null;
        if (created) {
            requireRoom(agent.org());
            em.persist(new WebhookEntity(agent.id(), agent.org(), checked, secret, now));
        } else {
            hook.replace(checked, secret, now);
        }
        registry.add(agent.id());
        // after commit, whatever already waits in the inbox is pushed too
        queued.fire(new MessageQueued(agent.id()));
        JsonObject reply = Jsons.PROVIDER.createObjectBuilder().add("agent", address.agentPath()).add("url", checked)
                .add("secret", secret).build();
        return new Set(created, reply);
    }

    /** {@code DELETE /agents/.../webhook}: back to the inbox; deliveries in progress stop at their next attempt. */
    public JsonObject remove(Caller caller, Address address) {
        AgentInfo agent = agents.requireOwned(caller, address.agentPath());
        WebhookEntity hook = em.find(WebhookEntity.class, agent.id());
        if (hook == null) {
            throw RedsynException.notFound(address.agentPath() + " has no webhook");
        }
        em.remove(hook);
        registry.remove(agent.id());
        return Jsons.PROVIDER.createObjectBuilder().add("agent", address.agentPath()).add("webhook", false)
                .add("delivery", "inbox").build();
    }

    private void requireRoom(String org) {
        Plan plan = directory.planOf(org);
        if (plan.webhooks() < 0) {
            return;
        }
        long count = em.createNamedQuery("Webhook.countByOrg", Long.class).setParameter("org", org).getSingleResult();
        if (count >= plan.webhooks()) {
            throw new RedsynException(403, org + " has reached the " + plan.webhooks() + " webhooks of its "
                    + plan.name() + " plan", Map.of("quota", true));
        }
    }
}
