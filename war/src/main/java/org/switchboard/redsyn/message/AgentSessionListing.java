package org.switchboard.redsyn.message;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.switchboard.json.Jsons;
import org.switchboard.redsyn.directory.SessionListing;

/** Lists an agent's sessions for the directory's agent views (see {@link SessionListing}). */
@ApplicationScoped
public class AgentSessionListing implements SessionListing {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Override
    public JsonArrayBuilder sessionsOf(long agentId, boolean owner) {
        JsonArrayBuilder sessions = Jsons.PROVIDER.createArrayBuilder();
        for (SessionEntity s : em.createNamedQuery("Session.byAgent", SessionEntity.class)
                .setParameter("agent", agentId).setMaxResults(100).getResultList()) {
            JsonObjectBuilder sb = Jsons.PROVIDER.createObjectBuilder().add("id", s.sid()).add("closed", s.isClosed());
            if (owner) {
                sb.add("title", s.getTitle() == null ? "" : s.getTitle()).add("thread", s.getThread())
                        .add("created", s.getCreatedAt() / 1000);
            }
            sessions.add(sb);
        }
        return sessions;
    }
}
