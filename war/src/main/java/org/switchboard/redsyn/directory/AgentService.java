package org.switchboard.redsyn.directory;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.paging.ListBudget;
import org.switchboard.redsyn.paging.ListLimits;
import org.switchboard.redsyn.plan.Plan;

/**
 * Agents: announce with policy, look up, list the directory, presence. The cached lookups of the
 * send and take paths carry no transaction interceptor (see {@link OrganisationService}).
 */
@ApplicationScoped
public class AgentService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Most agents of one directory page (the bytes are bounded by {@code redsyn.list.max-bytes}). */
    static final int MAX_LISTED = 1000;

    @Inject
    ListLimits limits;

    @Inject
    OrganisationService directory;

    @Inject
    SessionListing sessionListing;

    @Inject
    DirectoryCache cache;

    @Inject
    PresenceTracker presence;

    @Inject
    LinkCheck links;

    @Inject
    RedsynConfig config;

    /** Result of an announce: whether the agent was created, and how it looks now. */
    public record Announced(boolean created, JsonObject agent) {
    }

    /** Announces one of the caller's agents; the first announce creates it. */
    @Transactional
    public Announced announce(Caller caller, Address address, Announcement a) {
        if (a.listening() && a.policy() != null) {
            PolicyDecision.validate(a.policy());
        }
        AgentEntity agent = find(address.agentPath());
        boolean created = false;
        long now = System.currentTimeMillis();
        if (agent == null) {
            requireOwnPlace(caller, address);
            agent = create(address, caller.personId(), now);
            created = true;
        } else if (agent.getOwnerPersonId() != caller.personId()) {
            throw RedsynException.forbidden(address.agentPath() + " is not one of your agents");
        }
        agent.announce(a.description(), a.adapter(), a.listening(), a.policy() == null ? Policy.DEFAULT : a.policy(), now, caller.node());
        if (a.listening()) {
            presence.beat(agent.getId(), caller.node(), now);
        }
        cache.invalidate();
        return new Announced(created, view(agent, caller, false));
    }

    /**
     * The caller's own agent, created (not listening) the first time the caller sends from it. Runs in
     * the send's transaction (no interceptor of its own: it is on every send).
     */
    public AgentInfo ownAgent(Caller caller, Address address) {
        AgentInfo info = info(address.agentPath());
        if (info != null) {
            if (info.ownerPersonId() != caller.personId()) {
                throw RedsynException.forbidden("from must be one of your agents; " + address.agentPath() + " is not");
            }
            return info;
        }
        requireOwnPlace(caller, address);
        AgentEntity agent = create(address, caller.personId(), System.currentTimeMillis());
        cache.invalidate();
        return toInfo(agent);
    }

    private AgentEntity create(Address address, long owner, long now) {
        Plan plan = directory.planOf(address.org());
        if (plan.agents() >= 0) {
            long count = em.createNamedQuery("Agent.countByOrg", Long.class).setParameter("org", address.org()).getSingleResult();
            if (count >= plan.agents()) {
                throw new RedsynException(403, address.org() + " has reached the " + plan.agents()
                        + " agents of its " + plan.name() + " plan", Map.of("quota", true));
            }
        }
        AgentEntity agent = new AgentEntity(address.agentPath(), address.org(), address.team(), address.user(), owner, now);
        em.persist(agent);
        em.flush();
        return agent;
    }

    /** An agent may only be created by the person with that handle, in a team the person belongs to. */
    private void requireOwnPlace(Caller caller, Address address) {
        Membership m = directory.membership(address.org(), caller.personId());
        if (m == null) {
            throw RedsynException.forbidden("you are not in " + address.org());
        }
        if (!m.handle().equals(address.user())) {
            throw RedsynException.forbidden("you are " + m.handle() + " in " + address.org() + ", not " + address.user());
        }
        if (!m.teams().contains(address.team())) {
            throw RedsynException.forbidden("you are not in team " + address.team() + " of " + address.org());
        }
    }

    /** What the send and take paths need about an agent, or null when it does not exist. */
    public AgentInfo info(String agentPath) {
        return cache.get("agent:" + agentPath, key -> {
            AgentEntity a = find(agentPath);
            return a == null ? null : toInfo(a);
        });
    }

    /** An agent by address, or 404. */
    public AgentInfo requireInfo(String agentPath) {
        AgentInfo info = info(agentPath);
        if (info == null) {
            throw RedsynException.notFound("no agent " + agentPath);
        }
        return info;
    }

    /** An agent the caller owns, or 403 / 404. */
    public AgentInfo requireOwned(Caller caller, String agentPath) {
        AgentInfo info = requireInfo(agentPath);
        if (info.ownerPersonId() != caller.personId()) {
            throw RedsynException.forbidden(agentPath + " is not one of your agents");
        }
        return info;
    }

    /** True when the person may see the agent: its organisation, or a linked one that exposes it. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean mayView(long personId, AgentInfo agent) {
        if (agent.ownerPersonId() == personId || directory.membership(agent.org(), personId) != null) {
            return true;
        }
        for (String org : directory.orgsOf(personId)) {
            if (links.mayView(org, agent.org(), agent.address().agentPath())) {
                return true;
            }
        }
        return false;
    }

    /** {@code GET /agents/...}: presence, policy summary and sessions. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject get(Caller caller, Address address) {
        AgentInfo info = info(address.agentPath());
        if (info == null || !mayView(caller.personId(), info)) {
            throw RedsynException.notFound("no agent " + address.agentPath());
        }
        return view(find(address.agentPath()), caller, true);
    }

    /** {@code GET /directory}: agents the caller reaches (its organisations'). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject directory(Caller caller, boolean onlineOnly, boolean withSessions, String cursor) {
        long offset = ListBudget.cursor(cursor);
        List<String> orgs = directory.orgsOf(caller.personId());
        List<AgentEntity> agents = new ArrayList<>();
        if (!orgs.isEmpty()) {
            long now = System.currentTimeMillis();
            for (AgentEntity a : em.createNamedQuery("Agent.byOrgs", AgentEntity.class).setParameter("orgs", orgs).getResultList()) {
                if (onlineOnly && !Presence.online(lastSeen(a), now, config.offlineAfterSeconds())) {
                    continue;
                }
                agents.add(a);
            }
            listLinked(orgs, onlineOnly, now, agents);
        }
        // in a stable order (own organisations, then linked ones, each by address): the cursor is a position
        ListBudget.Page page = limits.budget(MAX_LISTED).fillFromOffset(agents, offset, a -> view(a, caller, withSessions));
        return page.addTo(Jsons.PROVIDER.createObjectBuilder(), "agents").build();
    }

    /** What linked organisations expose to the caller's organisations, each agent once. */
    private void listLinked(List<String> orgs, boolean onlineOnly, long now, List<AgentEntity> out) {
        Set<String> listed = new HashSet<>();
        for (String org : orgs) {
            for (String partner : links.linkedOrgs(org)) {
                if (orgs.contains(partner)) {
                    continue;
                }
                for (AgentEntity a : em.createNamedQuery("Agent.byOrgs", AgentEntity.class).setParameter("orgs", List.of(partner)).getResultList()) {
                    if (links.mayView(org, partner, a.getAddress()) && listed.add(a.getAddress())
                            && (!onlineOnly || Presence.online(lastSeen(a), now, config.offlineAfterSeconds()))) {
                        out.add(a);
                    }
                }
            }
        }
    }

    /** Records a heartbeat (a take): memory only. */
    public void heartbeat(long agentId, String node) {
        presence.beat(agentId, node, System.currentTimeMillis());
    }

    private long lastSeen(AgentEntity a) {
        PresenceTracker.Seen seen = presence.lastSeen(a.getId());
        return seen == null ? a.getLastSeen() : Math.max(seen.at(), a.getLastSeen());
    }

    private JsonObject view(AgentEntity a, Caller caller, boolean withSessions) {
        long now = System.currentTimeMillis();
        long lastSeen = lastSeen(a);
        PresenceTracker.Seen seen = presence.lastSeen(a.getId());
        String node = seen != null && seen.at() >= a.getLastSeen() ? seen.node() : a.getLastNode();
        Policy policy = a.policy();
        JsonArrayBuilder accepts = Jsons.PROVIDER.createArrayBuilder();
        if (policy.allow().isEmpty()) {
            accepts.add("team:" + a.getTeam());
        } else {
            policy.allow().forEach(accepts::add);
        }
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder()
                .add("address", a.getAddress())
                .add("description", a.getDescription() == null ? "" : a.getDescription())
                .add("adapter", a.getAdapter() == null ? "" : a.getAdapter())
                .add("listening", a.isListening())
                .add("online", Presence.online(lastSeen, now, config.offlineAfterSeconds()))
                .add("accepts", accepts)
                .add("trust", policy.trust())
                .add("signed_only", policy.signedOnly())
                .add("encrypted_only", policy.encryptedOnly());
        if (lastSeen > 0) {
            b.add("last_seen", lastSeen / 1000);
        } else {
            b.addNull("last_seen");
        }
        if (node != null) {
            b.add("node", node);
        } else {
            b.addNull("node");
        }
        if (withSessions) {
            boolean owner = a.getOwnerPersonId() == caller.personId();
            JsonArrayBuilder sessions = sessionListing.sessionsOf(a.getId(), owner);
            b.add("sessions", sessions);
        }
        return b.build();
    }

    private AgentEntity find(String agentPath) {
        List<AgentEntity> agents = em.createNamedQuery("Agent.byAddress", AgentEntity.class).setParameter("address", agentPath).getResultList();
        return agents.isEmpty() ? null : agents.get(0);
    }

    private static AgentInfo toInfo(AgentEntity a) {
        return new AgentInfo(a.getId(), Address.parse(a.getAddress()), a.getOwnerPersonId(), a.policy());
    }
}
