package org.switchboard.redsyn.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.switchboard.redsyn.directory.NodeEntity;
import org.switchboard.redsyn.inbox.LeaseRules;
import org.switchboard.redsyn.keys.NodeKeyService;
import org.switchboard.redsyn.message.AcceptedMessages;
import org.switchboard.redsyn.message.Kind;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.store.GroupedUpdates;

/**
 * Reserves an encrypted request for the node it was sealed for: the node whose key
 * {@code GET /agents/{…}/key} published when the request was accepted. Another node listening for the
 * same agent skips it when taking (it could not open it anyway).
 */
@ApplicationScoped
public class SealedReservations implements AcceptedMessages {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    NodeKeyService keys;

    /**
     * Agents that may have reservations: true once one is made, false after a lookup found none. Spares
     * the query on every take of agents that never received a sealed request.
     */
    private final ConcurrentHashMap<Long, Boolean> mayHave = new ConcurrentHashMap<>();

    /** A reservation's row in SQL, for the relay writer (parameters: message seq, agent, node). */
    static final String INSERT_SQL = "INSERT INTO REDSYN_SEALED_FOR (MESSAGESEQ, AGENTID, NODE) VALUES (?, ?, ?)";

    /**
     * Called on the send path once the request's seq is drawn, in the send's read (no interceptor of its
     * own: it is on every request, and almost always returns at once).
     */
    @Override
    public Optional<GroupedUpdates.Update> reservation(MessageEntity m, boolean encrypted) {
        if (!encrypted || m.getKind() != Kind.REQUEST) {
            return Optional.empty();
        }
        NodeEntity node = keys.publishedKeyNode(m.getToAgentId());
        if (node == null) {
            return Optional.empty(); // no key was published: nothing tells which node it was sealed for
        }
        // before its commit, as the reservation's own persist did: at worst a take looks once for nothing
        mayHave.put(m.getToAgentId(), Boolean.TRUE);
        return Optional.of(new GroupedUpdates.Update(INSERT_SQL, List.of(m.getSeq(), m.getToAgentId(), node.getName())));
    }

    /** Removes from a take's candidates (in seq order) the requests reserved for another node (in the take's transaction). */
    public void dropReservedForOthers(long agentId, String node, List<LeaseRules.Candidate> candidates) {
        if (candidates.isEmpty() || !mayHaveReservations(agentId)) {
            return;
        }
        long since = Long.parseLong(candidates.get(0).id());
        Set<String> others = new HashSet<>();
        for (Object seq : em.createNamedQuery("SealedFor.othersSince").setParameter("agent", agentId)
                .setParameter("since", since).setParameter("node", node).getResultList()) {
            others.add(String.valueOf(seq));
        }
        if (!others.isEmpty()) {
            candidates.removeIf(c -> others.contains(c.id()));
        }
    }

    private boolean mayHaveReservations(long agentId) {
        Boolean known = mayHave.get(agentId);
        if (known == null) {
            boolean any = !em.createNamedQuery("SealedFor.anyOfAgent").setParameter("agent", agentId).setMaxResults(1)
                    .getResultList().isEmpty();
            known = mayHave.putIfAbsent(agentId, any); // a concurrent reservation's true wins
            return known == null ? any : known;
        }
        return known;
    }
}
