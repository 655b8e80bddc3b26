package org.switchboard.redsyn.message;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
import org.switchboard.redsyn.paging.ListBudget;
import org.switchboard.redsyn.paging.ListLimits;

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

    @Inject
    ListLimits limits;

    /** A session's messages on the receiving side (what follows {@code FROM}, up to its first condition). */
    static final String TO_SESSION = "MessageEntity m WHERE m.toSessionId = :session";
    /** A session's messages on the sending side, keyed in their side table (V8). */
    static final String FROM_SESSION = "MessageEntity m, MessageFromSessionEntity f WHERE f.sessionId = :session AND m.seq = f.seq";

    /** Most messages of one thread or session page (the bytes are bounded by {@code redsyn.list.max-bytes}). */
    static final int MAX_MESSAGES = 2000;

    /** Messages read per query while filling a page. */
    static final int SCAN_CHUNK = 100;

    /** Most messages read for one page, shown or not. */
    static final int MAX_SCANNED = 5000;

    /**
     * {@code GET /agents/.../sessions/{sid}[?cursor=]}: the session and, as far as the caller may see
     * them, its messages in order, one bounded page at a time (see {@link ListBudget}).
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject get(Caller caller, Address agentAddress, String sid, String cursor) {
        long after = ListBudget.cursor(cursor);
        AgentInfo agent = agents.info(agentAddress.agentPath());
        SessionEntity s = agent == null ? null : session(agent, sid);
        Visibility visibility = s == null ? Visibility.NONE : visibility(caller, agent, s.getId());
        if (visibility == Visibility.NONE) {
            throw RedsynException.notFound("no session " + sid + " on " + agentAddress.agentPath());
        }
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("id", s.sid()).add("agent", agent.address().agentPath())
                .add("closed", s.isClosed()).add("visibility", visibility.name().toLowerCase());
        if (visibility == Visibility.EXISTS) {
            return b.build();
        }
        b.add("title", s.getTitle() == null ? "" : s.getTitle()).add("thread", s.getThread()).add("created", s.getCreatedAt() / 1000);
        ListBudget budget = limits.budget(MAX_MESSAGES);
        ListBudget.Page page = scan(budget, after, from -> sessionMessages(s.getId(), from, SCAN_CHUNK + 1),
                m -> visibility.shows(own(caller, m)) ? withState(m) : null);
        return page.addTo(b, "messages").build();
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

    /**
     * {@code GET /threads/{id}[?cursor=]}: the messages the caller may see, in order, one bounded page
     * at a time; others learn only that it exists. {@code hidden} counts the whole thread.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject thread(Caller caller, String threadId, String cursor) {
        long after = ListBudget.cursor(cursor);
        long total = em.createQuery("SELECT COUNT(m) FROM MessageEntity m WHERE m.thread = :thread", Long.class)
                .setParameter("thread", threadId).getSingleResult();
        // own messages, and every message of a session the caller owns (it is to or from the caller's agent)
        long visible = em.createQuery("SELECT COUNT(m) FROM MessageEntity m WHERE m.thread = :thread"
                        + " AND (m.fromPersonId = :person OR m.toPersonId = :person)", Long.class)
                .setParameter("thread", threadId).setParameter("person", caller.personId()).getSingleResult();
        if (visible == 0) {
            Set<String> orgs = new HashSet<>();
            for (Object[] pair : em.createQuery("SELECT DISTINCT m.fromOrg, m.toOrg FROM MessageEntity m WHERE m.thread = :thread", Object[].class)
                    .setParameter("thread", threadId).getResultList()) {
                orgs.add((String) pair[0]);
                orgs.add((String) pair[1]);
            }
            boolean member = orgs.stream().anyMatch(o -> o != null && directory.membership(o, caller.personId()) != null);
            if (!member) {
                throw RedsynException.notFound("no thread " + threadId);
            }
        }
        ListBudget.Page page = scan(limits.budget(MAX_MESSAGES), after, from -> em.createQuery(
                        "SELECT m FROM MessageEntity m WHERE m.thread = :thread AND m.seq > :after ORDER BY m.seq", MessageEntity.class)
                .setParameter("thread", threadId).setParameter("after", from).setMaxResults(SCAN_CHUNK + 1).getResultList(),
                m -> own(caller, m) ? withState(m) : null);
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("id", threadId);
        return page.addTo(b, "messages").add("hidden", total - visible).build();
    }

    /**
     * Fills {@code budget} from messages read {@link #SCAN_CHUNK} at a time in {@code seq} order after
     * {@code after}: only the rows a page may need are loaded, never a whole thread. At most
     * {@link #MAX_SCANNED} rows are read per page, so a caller who sees few messages of a long thread
     * gets a short page with a cursor rather than a long scan.
     */
    private static ListBudget.Page scan(ListBudget budget, long after, java.util.function.LongFunction<List<MessageEntity>> rowsAfter,
                                        java.util.function.Function<MessageEntity, jakarta.json.JsonValue> render) {
        long at = after;
        int scanned = 0;
        while (true) {
            List<MessageEntity> rows = rowsAfter.apply(at);
            boolean more = rows.size() > SCAN_CHUNK;
            for (MessageEntity m : more ? rows.subList(0, SCAN_CHUNK) : rows) {
                jakarta.json.JsonValue entry = render.apply(m);
                if (entry != null && !budget.offer(entry)) {
                    return budget.page(Long.toString(at));
                }
                at = m.getSeq();
                scanned++;
            }
            if (!more) {
                return budget.page(null);
            }
            if (scanned >= MAX_SCANNED) {
                return budget.page(Long.toString(at));
            }
        }
    }

    private static boolean own(Caller caller, MessageEntity m) {
        return (m.getFromPersonId() != null && m.getFromPersonId() == caller.personId()) || m.getToPersonId() == caller.personId();
    }

    private static JsonObject withState(MessageEntity m) {
        return Jsons.PROVIDER.createObjectBuilder(EnvelopeRenderer.delivered(m)).add("state", DeliveryState.name(m.getState())).build();
    }

    /**
     * The first {@code max} of the session's messages after {@code seq} {@code after}, in order. Asked
     * as two indexed queries: one query with {@code toSession = :s OR fromSession = :s} made H2 scan
     * the whole message table. The sending side is keyed in its side table ({@link MessageSideKeys}).
     */
    private List<MessageEntity> sessionMessages(long sessionId, long after, int max) {
        TreeMap<Long, MessageEntity> bySeq = new TreeMap<>();
        for (String query : new String[] {TO_SESSION, FROM_SESSION}) {
            for (MessageEntity m : em.createQuery("SELECT m FROM " + query + " AND m.seq > :after ORDER BY m.seq", MessageEntity.class)
                    .setParameter("session", sessionId).setParameter("after", after).setMaxResults(max).getResultList()) {
                bySeq.put(m.getSeq(), m);
            }
        }
        return new ArrayList<>(bySeq.values()).subList(0, Math.min(max, bySeq.size()));
    }

    /** Whether the caller sent or received any message of the session (each side one indexed query). */
    private boolean participates(Caller caller, long sessionId) {
        for (String query : new String[] {TO_SESSION, FROM_SESSION}) {
            if (!em.createQuery("SELECT m.seq FROM " + query + " AND (m.fromPersonId = :person OR m.toPersonId = :person)", Long.class)
                    .setParameter("session", sessionId).setParameter("person", caller.personId()).setMaxResults(1).getResultList().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private Visibility visibility(Caller caller, AgentInfo agent, long sessionId) {
        boolean owner = agent.ownerPersonId() == caller.personId();
        boolean participant = !owner && participates(caller, sessionId);
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
