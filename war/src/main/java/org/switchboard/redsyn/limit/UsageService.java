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
import java.util.Map;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.link.LinkService;
import org.switchboard.redsyn.plan.Plan;

/** {@code GET /orgs/{org}/usage}: what an organisation uses against its plan; and the daily message check. */
@ApplicationScoped
@Transactional(Transactional.TxType.SUPPORTS)
public class UsageService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    OrganisationService directory;

    @Inject
    LinkService links;

    /** Usage and limits, for members of the organisation. */
    public JsonObject usage(Caller caller, String org) {
        directory.requireMember(caller, org);
        return usage(org);
    }

    private JsonObject usage(String org) {
        Plan plan = directory.planOf(org);
        Number files = (Number) em.createNamedQuery("File.pendingBytes").setParameter("org", org).getSingleResult();
        long agents = em.createNamedQuery("Agent.countByOrg", Long.class).setParameter("org", org).getSingleResult();
        long webhooks = em.createNamedQuery("Webhook.countByOrg", Long.class).setParameter("org", org).getSingleResult();
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
                .add("messages_today", sentToday(org))
                .add("messages_reset", midnightAfter() / 1000)
                .add("files_pending_bytes", files == null ? 0 : files.longValue())
                .add("agents", agents)
                .add("links", links.countedLinks(org))
                .add("webhooks", webhooks)
                .add("limits", limits)
                .add("unlimited", -1)
                .build();
    }

    /** Usage and limits of any organisation, without a membership check (operator view). */
    public JsonObject usageOf(String org) {
        return usage(org);
    }

    /** Every organisation handle, sorted (operator view). */
    public java.util.List<String> orgHandles() {
        return em.createQuery("SELECT o.handle FROM OrgEntity o ORDER BY o.handle", String.class).getResultList();
    }

    /** Refuses with 429 {@code quota: true} when {@code org} has sent its plan's messages today. */
    public void checkDailyMessages(String org) {
        Plan plan = directory.planOf(org);
        if (plan.messagesPerDay() >= 0 && sentToday(org) >= plan.messagesPerDay()) {
            throw new RedsynException(429, org + " has sent the " + plan.messagesPerDay() + " messages of its "
                    + plan.name() + " plan today; they come back at 00:00 UTC", Map.of("quota", true));
        }
    }

    /** Messages {@code org} sent since 00:00 UTC (relay notices not counted; each topic copy counts). */
    public long sentToday(String org) {
        long midnight = LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        return em.createNamedQuery("Message.countSince", Long.class).setParameter("org", org)
                .setParameter("since", midnight).getSingleResult();
    }

    private static long midnightAfter() {
        return LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }
}
