package org.switchboard.redsyn.topic;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.paging.ListBudget;
import org.switchboard.redsyn.paging.ListLimits;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.address.AddressException;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.directory.Tokens;
import org.switchboard.redsyn.limit.UsageService;
import org.switchboard.redsyn.link.LinkService;
import org.switchboard.redsyn.link.RelayLinks;
import org.switchboard.redsyn.message.EnvelopeDraft;
import org.switchboard.redsyn.message.Kind;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.message.MessageSideKeys;
import org.switchboard.redsyn.message.MessageQueued;
import org.switchboard.redsyn.message.SessionEntity;
import org.switchboard.redsyn.message.SignatureVerdict;
import org.switchboard.redsyn.message.TopicPublisher;

/**
 * Topics and events: subscriptions, the topic list, and publishing, which stores one copy of the
 * event per subscribed agent (not the publisher), each in that agent's own session for the topic.
 * Links are checked again for every copy, at fan-out.
 */
@ApplicationScoped
@Transactional
public class TopicService implements TopicPublisher {

    /** TTL of an event that names none: one day (then capped by the plan). */
    static final long EVENT_TTL_SECONDS = 86_400;

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Most entries of one list page (the bytes are bounded by {@code redsyn.list.max-bytes}). */
    static final int MAX_LISTED = 1000;

    @Inject
    ListLimits limits;

    @Inject
    TopicRows rows;

    @Inject
    AgentService agents;

    @Inject
    OrganisationService directory;

    @Inject
    LinkService links;

    @Inject
    RelayLinks relayLinks;

    @Inject
    UsageService usage;

    @Inject
    Event<MessageQueued> queued;

    /** What a subscription call did: the agent, the topic (full address), whether it listens now, whether that changed. */
    public record Subscription(String agent, String topic, boolean subscribed, boolean changed) {

        /** The call's answer. */
        public JsonObject json() {
            return Jsons.PROVIDER.createObjectBuilder().add("agent", agent).add("topic", topic)
                    .add("subscribed", subscribed).add("changed", changed).build();
        }
    }

    /** {@code PUT /subscriptions}: one of the caller's agents listens to a topic (created if new). */
    public Subscription subscribe(Caller caller, String agentText, String topicText) {
        AgentInfo agent = ownAgent(caller, agentText);
        TopicAddress topic = resolve(topicText, agent.address());
        // the link first: another organisation's teams are nobody's business without one
        TopicAccess.subscribeRefusal(agent.org(), topic, links.snapshot(agent.org(), topic.org())).ifPresent(reason -> {
            throw RedsynException.forbidden(reason);
        });
        requireTopicPlace(topic);
        long now = System.currentTimeMillis();
        TopicEntity t = topic(topic, now);
        if (subscription(t.getId(), agent.id()) != null) {
            return new Subscription(agent.address().agentPath(), topic.toString(), true, false);
        }
        try {
            rows.insert(new SubscriptionEntity(t.getId(), agent.id(), agent.address().agentPath(), agent.org(), agent.ownerPersonId(), now));
        } catch (RuntimeException lostRace) {
            // the same subscription made a moment ago by a concurrent call: this one changed nothing
            if (subscription(t.getId(), agent.id()) == null) {
                throw lostRace;
            }
            return new Subscription(agent.address().agentPath(), topic.toString(), true, false);
        }
        return new Subscription(agent.address().agentPath(), topic.toString(), true, true);
    }

    /** {@code POST /subscriptions/remove}: the agent stops listening ({@code changed} false when it was not). */
    public Subscription unsubscribe(Caller caller, String agentText, String topicText) {
        AgentInfo agent = ownAgent(caller, agentText);
        TopicAddress topic = resolve(topicText, agent.address());
        TopicEntity t = findTopic(topic);
        SubscriptionEntity s = t == null ? null : subscription(t.getId(), agent.id());
        if (s != null) {
            em.remove(s);
        }
        return new Subscription(agent.address().agentPath(), topic.toString(), false, s != null);
    }

    /**
     * {@code GET /topics}: the topics of the caller's organisations with everyone listening, and the
     * topics elsewhere its organisations' agents listen to (with only those listeners).
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject topics(Caller caller, String cursor) {
        long offset = ListBudget.cursor(cursor);
        List<String> orgs = directory.orgsOf(caller.personId());
        Map<String, TopicEntity> found = new LinkedHashMap<>();
        if (!orgs.isEmpty()) {
            em.createNamedQuery("Topic.byOrgs", TopicEntity.class).setParameter("orgs", orgs).getResultList()
                    .forEach(t -> found.put(t.getPath(), t));
            em.createNamedQuery("Topic.subscribedFrom", TopicEntity.class).setParameter("orgs", orgs).getResultList()
                    .forEach(t -> found.putIfAbsent(t.getPath(), t));
        }
        // in the queries' stable order: the cursor is a position
        ListBudget.Page page = limits.budget(MAX_LISTED).fillFromOffset(new ArrayList<>(found.values()), offset, t -> {
            boolean ours = orgs.contains(t.getOrg());
            JsonArrayBuilder subscribers = Jsons.PROVIDER.createArrayBuilder();
            for (SubscriptionEntity s : subscriptions(t.getId())) {
                if (ours || orgs.contains(s.getAgentOrg())) {
                    subscribers.add(s.getAgentAddress());
                }
            }
            return Jsons.PROVIDER.createObjectBuilder().add("topic", "topic:" + t.getPath()).add("org", t.getOrg())
                    .add("created", t.getCreatedAt() / 1000).add("subscribers", subscribers).build();
        });
        return page.addTo(Jsons.PROVIDER.createObjectBuilder(), "topics").build();
    }

    @Override
    public JsonObject publish(Caller caller, AgentInfo from, EnvelopeDraft d, String messageId, SignatureVerdict verdict) {
        TopicAddress topic = resolve(d.to(), from.address());
        if (d.zip() != null) {
            throw RedsynException.unprocessable("an event carries no files: put them where subscribers can fetch them and use refs");
        }
        if (d.encrypted()) {
            throw RedsynException.unprocessable("events to topics are not encrypted in this version: they go to many agents");
        }
        String clientIp = relayLinks.clientAddress();
        TopicAccess.publishRefusal(from.org(), topic, links.snapshot(from.org(), topic.org()), verdict.signed(), clientIp)
                .ifPresent(reason -> {
                    throw RedsynException.forbidden(reason);
                });
        requireTopicPlace(topic);
        TopicEventEntity earlier = em.find(TopicEventEntity.class, messageId);
        if (earlier != null) {
            if (earlier.getFromPersonId() != caller.personId()) {
                throw RedsynException.conflict("id " + messageId + " is already used; choose another");
            }
            return accepted(earlier, true);
        }
        usage.checkDailyMessages(from.org());
        long now = System.currentTimeMillis();
        TopicEntity t = topic(topic, now);
        long ttl = directory.planOf(from.org()).capTtl(d.ttl(), EVENT_TTL_SECONDS);
        String thread = d.thread() != null ? d.thread() : messageId;
        String sig = verdict.deliveredSig() == null ? null : verdict.deliveredSig().toString();
        int copies = 0;
        for (SubscriptionEntity s : subscriptions(t.getId())) {
            if (s.getAgentId() == from.id() || TopicAccess.deliveryRefusal(s.getAgentOrg(), topic,
                    links.snapshot(s.getAgentOrg(), topic.org()), verdict.signed(), clientIp).isPresent()) {
                continue;
            }
            long session = session(s, thread, now);
            MessageEntity copy = new MessageEntity(Tokens.newId("e"), Kind.EVENT, now)
                    .from(from.id(), d.from().toString(), null, caller.personId(), from.org())
                    .to(s.getAgentId(), s.getAgentAddress() + "#s" + session, session, s.getOwnerPersonId(), s.getAgentOrg())
                    .event(messageId, topic.toString());
            copy.content(thread, null, d.ts(), ttl, d.bodyJson(), d.refs().toString(), false, false);
            copy.signature(verdict.signed(), sig);
            MessageSideKeys.persist(em, copy);
            queued.fire(new MessageQueued(s.getAgentId()));
            copies++;
        }
        TopicEventEntity event = new TopicEventEntity(messageId, topic.toString(), thread, caller.personId(), copies, verdict.signed(), now);
        em.persist(event);
        return accepted(event, false);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean published(String id) {
        return id != null && em.find(TopicEventEntity.class, id) != null;
    }

    private static JsonObject accepted(TopicEventEntity e, boolean duplicate) {
        var b = Jsons.PROVIDER.createObjectBuilder().add("id", e.getEventId()).add("thread", e.getThread())
                .add("to", e.getTopic()).add("topic", e.getTopic()).add("signed", e.isSigned()).add("copies", e.getCopies());
        if (duplicate) {
            b.add("duplicate", true);
        }
        return b.build();
    }

    /** The subscriber's open session for this topic, opening one when it has none (or closed it). */
    private long session(SubscriptionEntity s, String thread, long now) {
        if (s.getSessionId() != null) {
            SessionEntity open = em.find(SessionEntity.class, s.getSessionId());
            if (open != null && !open.isClosed()) {
                return open.getId();
            }
        }
        SessionEntity opened = new SessionEntity(s.getAgentId(), thread, now);
        em.persist(opened);
        s.setSessionId(opened.getId());
        return opened.getId();
    }

    private AgentInfo ownAgent(Caller caller, String text) {
        Address address;
        try {
            address = Address.parse(text);
        } catch (AddressException e) {
            throw RedsynException.unprocessable("agent: " + e.getMessage() + " (one of your agents, full address)");
        }
        return agents.requireOwned(caller, address.agentPath());
    }

    private static TopicAddress resolve(String text, Address agent) {
        try {
            return TopicAddress.resolve(text, agent);
        } catch (AddressException e) {
            throw RedsynException.unprocessable("topic: " + e.getMessage());
        }
    }

    /** A topic lives in a team of an existing organisation. */
    private void requireTopicPlace(TopicAddress topic) {
        directory.requireOrg(topic.org());
        if (!directory.teamExists(topic.org(), topic.team())) {
            throw RedsynException.notFound("no team " + topic.team() + " in " + topic.org() + " for " + topic);
        }
    }

    private TopicEntity findTopic(TopicAddress topic) {
        List<TopicEntity> found = em.createNamedQuery("Topic.byPath", TopicEntity.class).setParameter("path", topic.path()).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /** The topic, created by its first publication or subscription. */
    private TopicEntity topic(TopicAddress topic, long now) {
        TopicEntity t = findTopic(topic);
        if (t == null) {
            try {
                rows.insert(topic, now);
            } catch (RuntimeException lostRace) {
                // another request created it a moment ago: use its row (rethrown below if there is none)
                t = findTopic(topic);
                if (t == null) {
                    throw lostRace;
                }
                return t;
            }
            t = findTopic(topic);
        }
        return t;
    }

    private SubscriptionEntity subscription(long topicId, long agentId) {
        List<SubscriptionEntity> found = em.createNamedQuery("Subscription.find", SubscriptionEntity.class)
                .setParameter("topic", topicId).setParameter("agent", agentId).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private List<SubscriptionEntity> subscriptions(long topicId) {
        return new ArrayList<>(em.createNamedQuery("Subscription.byTopic", SubscriptionEntity.class).setParameter("topic", topicId).getResultList());
    }
}
