package org.switchboard.redsyn.message;

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
import java.util.Set;
import java.util.TreeMap;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.OrganisationService;

/** Sessions (view, title, close) and threads, each shown only as far as the caller may see it. */
@ApplicationScoped
@Transactional
public class SessionService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    AgentService agents;

    @Inject
    OrganisationService directory;

    /** {@code GET /agents/.../sessions/{sid}}. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject get(Caller caller, Address agentAddress, String sid) {
        AgentInfo agent = agents.info(agentAddress.agentPath());
        SessionEntity s = agent == null ? null : session(agent, sid);
        List<MessageEntity> inSession = s == null ? List.of() : sessionMessages(s.getId());
        Visibility visibility = s == null ? Visibility.NONE : visibility(caller, agent, inSession);
        if (visibility == Visibility.NONE) {
            throw RedsynException.notFound("no session " + sid + " on " + agentAddress.agentPath());
        }
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("id", s.sid()).add("agent", agent.address().agentPath())
                .add("closed", s.isClosed()).add("visibility", visibility.name().toLowerCase());
        if (visibility == Visibility.EXISTS) {
            return b.build();
        }
        b.add("title", s.getTitle() == null ? "" : s.getTitle()).add("thread", s.getThread()).add("created", s.getCreatedAt() / 1000);
        JsonArrayBuilder messages = Jsons.PROVIDER.createArrayBuilder();
        for (MessageEntity m : inSession) {
            if (visibility.shows(own(caller, m))) {
                messages.add(withState(m));
            }
        }
        return b.add("messages", messages).build();
    }

    /** {@code PUT /agents/.../sessions/{sid}} {@code {"title"}}: the owner only. */
    public JsonObject setTitle(Caller caller, Address agentAddress, String sid, String title) {
        SessionEntity s = owned(caller, agentAddress, sid);
        s.setTitle(title);
        return summary(agentAddress, s);
    }

    /** {@code POST /agents/.../sessions/{sid}/close}: the owner only. */
    public JsonObject close(Caller caller, Address agentAddress, String sid) {
        SessionEntity s = owned(caller, agentAddress, sid);
        s.close();
        return summary(agentAddress, s);
    }

    /** {@code GET /threads/{id}}: the messages the caller may see; others learn only that it exists. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject thread(Caller caller, String threadId) {
        List<MessageEntity> all = em.createNamedQuery("Message.thread", MessageEntity.class)
                .setParameter("thread", threadId).setMaxResults(2000).getResultList();
        JsonArrayBuilder visible = Jsons.PROVIDER.createArrayBuilder();
        int shown = 0;
        Set<String> orgs = new HashSet<>();
        for (MessageEntity m : all) {
            // own messages, and every message of a session the caller owns (it is to or from the caller's agent)
            if (own(caller, m)) {
                visible.add(withState(m));
                shown++;
            }
            orgs.add(m.getFromOrg());
            orgs.add(m.getToOrg());
        }
        if (shown == 0) {
            boolean member = orgs.stream().anyMatch(o -> o != null && directory.membership(o, caller.personId()) != null);
            if (!member) {
                throw RedsynException.notFound("no thread " + threadId);
            }
        }
        return Jsons.PROVIDER.createObjectBuilder().add("id", threadId).add("messages", visible).add("hidden", all.size() - shown).build();
    }

    private static boolean own(Caller caller, MessageEntity m) {
        return (m.getFromPersonId() != null && m.getFromPersonId() == caller.personId()) || m.getToPersonId() == caller.personId();
    }

    private static JsonObject withState(MessageEntity m) {
        return Jsons.PROVIDER.createObjectBuilder(EnvelopeRenderer.delivered(m)).add("state", DeliveryState.name(m.getState())).build();
    }

    /**
     * The session's messages in order. Asked as two indexed queries: one query with
     * {@code toSession = :s OR fromSession = :s} made H2 scan the whole message table.
     */
    private List<MessageEntity> sessionMessages(long sessionId) {
        TreeMap<Long, MessageEntity> bySeq = new TreeMap<>();
        for (String query : new String[] {"Message.toSession", "Message.fromSession"}) {
            for (MessageEntity m : em.createNamedQuery(query, MessageEntity.class).setParameter("session", sessionId).getResultList()) {
                bySeq.put(m.getSeq(), m);
            }
        }
        return new ArrayList<>(bySeq.values());
    }

    private Visibility visibility(Caller caller, AgentInfo agent, List<MessageEntity> inSession) {
        boolean owner = agent.ownerPersonId() == caller.personId();
        boolean participant = !owner && inSession.stream().anyMatch(m -> own(caller, m));
        boolean member = directory.membership(agent.org(), caller.personId()) != null;
        return Visibility.of(owner, participant, member);
    }

    private SessionEntity owned(Caller caller, Address agentAddress, String sid) {
        AgentInfo agent = agents.info(agentAddress.agentPath());
        SessionEntity s = agent == null ? null : session(agent, sid);
        if (s == null || !agents.mayView(caller.personId(), agent)) {
            throw RedsynException.notFound("no session " + sid + " on " + agentAddress.agentPath());
        }
        if (agent.ownerPersonId() != caller.personId()) {
            throw RedsynException.forbidden("only the owner of " + agentAddress.agentPath() + " can change its sessions");
        }
        return s;
    }

    private SessionEntity session(AgentInfo agent, String sid) {
        Long id = SessionEntity.parseSid(sid);
        SessionEntity s = id == null ? null : em.find(SessionEntity.class, id);
        return s == null || s.getAgentId() != agent.id() ? null : s;
    }

    private static JsonObject summary(Address agentAddress, SessionEntity s) {
        return Jsons.PROVIDER.createObjectBuilder().add("id", s.sid()).add("agent", agentAddress.agentPath())
                .add("title", s.getTitle() == null ? "" : s.getTitle()).add("closed", s.isClosed())
                .add("thread", s.getThread()).build();
    }
}
