package org.switchboard.redsyn.limit;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.DirectoryService;

/** {@code GET /orgs/{org}/usage}: what an organisation uses against its plan. */
@ApplicationScoped
@Transactional(Transactional.TxType.SUPPORTS)
public class UsageService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    DirectoryService directory;

    /** Usage and limits, for members of the organisation. */
    public JsonObject usage(Caller caller, String org) {
        directory.requireMember(caller, org);
        Plan plan = directory.planOf(org);
        long midnight = LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        long messages = em.createNamedQuery("Message.countSince", Long.class).setParameter("org", org)
                .setParameter("since", midnight).getSingleResult();
        Number files = (Number) em.createNamedQuery("File.pendingBytes").setParameter("org", org).getSingleResult();
        long agents = em.createNamedQuery("Agent.countByOrg", Long.class).setParameter("org", org).getSingleResult();
        JsonObjectBuilder limits = Jsons.PROVIDER.createObjectBuilder()
                .add("messages_per_day", plan.messagesPerDay())
                .add("files_pending_bytes", plan.filesPendingBytes())
                .add("max_ttl", plan.maxTtlSeconds())
                .add("agents", plan.agents())
                .add("links", plan.links())
                .add("webhooks", plan.webhooks())
                .add("body_bytes", plan.maxBodyBytes())
                .add("zip_bytes", plan.maxZipBytes());
        return Jsons.PROVIDER.createObjectBuilder()
                .add("org", org)
                .add("plan", plan.name())
                .add("messages_today", messages)
                .add("files_pending_bytes", files == null ? 0 : files.longValue())
                .add("agents", agents)
                .add("links", 0)
                .add("webhooks", 0)
                .add("limits", limits)
                .add("unlimited", -1)
                .build();
    }
}
