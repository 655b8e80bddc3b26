package org.switchboard.redsyn.link;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.paging.ListBudget;
import org.switchboard.redsyn.paging.ListLimits;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.DirectoryCache;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.directory.Membership;
import org.switchboard.redsyn.plan.Plan;

/**
 * Organisation links: propose and accept, exposures, rules, revocation, the change log both sides
 * see, and the cached snapshots the send, view and fan-out paths check.
 */
@ApplicationScoped
@Transactional
public class LinkService {

    /** How many change-log entries a link view shows. */
    static final int LOG_ENTRIES = 50;

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Most entries of one list page (the bytes are bounded by {@code redsyn.list.max-bytes}). */
    static final int MAX_LISTED = 1000;

    @Inject
    ListLimits limits;

    @Inject
    OrganisationService directory;

    @Inject
    DirectoryCache cache;

    /** A link view and the HTTP status it answers with (201 for a new proposal). */
    public record Outcome(int status, JsonObject link) {
    }

    /** {@code POST /orgs/{org}/links {"other"}}: proposes a link, or accepts the one the other side proposed. */
    public Outcome propose(Caller caller, String org, String other) {
        Membership admin = requireAdmin(caller, org);
        if (org.equals(other)) {
            throw RedsynException.unprocessable("an organisation cannot link to itself");
        }
        directory.requireOrg(other);
        long now = System.currentTimeMillis();
        LinkEntity link = find(org, other);
        if (link == null || link.getState() == LinkState.REVOKED) {
            requireLinkQuota(org);
            if (link == null) {
                String[] pair = LinkSnapshot.pair(org, other);
                link = new LinkEntity(pair[0], pair[1], org, now);
                em.persist(link);
                em.flush();
            } else {
                link.propose(org, now);
            }
            log(link, now, org, admin.handle(), "proposed", "");
            return new Outcome(201, view(link, org));
        }
        if (link.getState() == LinkState.PROPOSED && !link.getProposedBy().equals(org)) {
            requireLinkQuota(org);
            link.moveTo(LinkState.ACTIVE, now);
            log(link, now, org, admin.handle(), "accepted", "");
        }
        return new Outcome(200, view(link, org));
    }

    /** {@code PUT /orgs/{org}/links/{other}/expose}: adds ({@code on}) or removes what {@code org} exposes. */
    public JsonObject expose(Caller caller, String org, String other, String kindText, String pattern, boolean on) {
        Membership admin = requireAdmin(caller, org);
        ExposureKind kind = ExposureKind.fromWire(kindText);
        if (kind == null) {
            throw RedsynException.unprocessable("kind must be agent, pub or sub");
        }
        if (!kind.validPattern(pattern)) {
            throw RedsynException.unprocessable("pattern of kind " + kind.wire() + " must be " + kind.forms());
        }
        LinkEntity link = requireLive(org, other);
        long now = System.currentTimeMillis();
        List<ExposureEntity> existing = em.createNamedQuery("Exposure.find", ExposureEntity.class).setParameter("link", link.getId())
                .setParameter("org", org).setParameter("kind", kind.wire()).setParameter("pattern", pattern).getResultList();
        if (on && existing.isEmpty()) {
            em.persist(new ExposureEntity(link.getId(), org, kind, pattern));
            log(link, now, org, admin.handle(), "exposed", kind.wire() + " " + pattern);
        } else if (!on && !existing.isEmpty()) {
            existing.forEach(em::remove);
            log(link, now, org, admin.handle(), "unexposed", kind.wire() + " " + pattern);
        }
        em.flush();
        return view(link, org);
    }

    /** {@code PUT /orgs/{org}/links/{other}/rules}: what {@code org} lets in from the other side; absent fields stay. */
    public JsonObject rules(Caller caller, String org, String other, Boolean signedOnly, String ips) {
        Membership admin = requireAdmin(caller, org);
        LinkEntity link = requireLive(org, other);
        LinkRules current = link.rulesOf(org);
        IpAllowList allow = current.ips();
        if (ips != null) {
            try {
                allow = IpAllowList.parse(ips);
            } catch (IllegalArgumentException e) {
                throw RedsynException.unprocessable("ips: " + e.getMessage());
            }
        }
        LinkRules next = new LinkRules(signedOnly == null ? current.signedOnly() : signedOnly, allow);
        long now = System.currentTimeMillis();
        link.setRules(org, next, now);
        log(link, now, org, admin.handle(), "rules", "signed_only=" + next.signedOnly() + " ips=" + next.ips().text());
        return view(link, org);
    }

    /** {@code POST /orgs/{org}/links/{other}/revoke}: ends the link, from either side; exposures are dropped. */
    public JsonObject revoke(Caller caller, String org, String other) {
        Membership admin = requireAdmin(caller, org);
        LinkEntity link = find(org, other);
        if (link == null) {
            throw RedsynException.notFound("no link between " + org + " and " + other);
        }
        if (link.getState() != LinkState.REVOKED) {
            long now = System.currentTimeMillis();
            link.moveTo(LinkState.REVOKED, now);
            em.createNamedQuery("Exposure.deleteByLink").setParameter("link", link.getId()).executeUpdate();
            log(link, now, org, admin.handle(), "revoked", "");
        }
        return view(link, org);
    }

    /** {@code GET /links}: the links of the caller's organisations, each seen from the caller's side. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject list(Caller caller, String cursor) {
        long offset = ListBudget.cursor(cursor);
        List<String> orgs = directory.orgsOf(caller.personId());
        List<LinkEntity> found = orgs.isEmpty() ? List.of()
                : em.createNamedQuery("Link.ofOrgs", LinkEntity.class).setParameter("orgs", orgs).getResultList();
        // in the query's stable order: the cursor is a position
        ListBudget.Page page = limits.budget(MAX_LISTED).fillFromOffset(found, offset,
                link -> view(link, orgs.contains(link.getOrgA()) ? link.getOrgA() : link.getOrgB()));
        return page.addTo(Jsons.PROVIDER.createObjectBuilder(), "links").build();
    }

    /**
     * The link between two organisations as checked on every crossing. Existing links are cached until
     * the next directory or link change; "no link" is not, so that addresses made up by senders cannot
     * grow the cache.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public LinkSnapshot snapshot(String x, String y) {
        String[] pair = LinkSnapshot.pair(x, y);
        LinkSnapshot link = cache.get("link:" + pair[0] + "|" + pair[1], key -> load(pair[0], pair[1]));
        return link != null ? link : LinkSnapshot.none(pair[0], pair[1]);
    }

    /** The organisations {@code org} has an active link with. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<String> activePartners(String org) {
        List<String> partners = new ArrayList<>();
        for (LinkEntity link : em.createNamedQuery("Link.ofOrgs", LinkEntity.class).setParameter("orgs", List.of(org)).getResultList()) {
            if (link.getState() == LinkState.ACTIVE) {
                partners.add(link.otherThan(org));
            }
        }
        return partners;
    }

    /** Links counted against {@code org}'s plan: active ones and its own pending proposals. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public long countedLinks(String org) {
        long n = 0;
        for (LinkEntity link : em.createNamedQuery("Link.ofOrgs", LinkEntity.class).setParameter("orgs", List.of(org)).getResultList()) {
            if (link.getState() == LinkState.ACTIVE || (link.getState() == LinkState.PROPOSED && link.getProposedBy().equals(org))) {
                n++;
            }
        }
        return n;
    }

    /** The stored link, or null when the two never linked. */
    private LinkSnapshot load(String a, String b) {
        List<LinkEntity> found = em.createNamedQuery("Link.byPair", LinkEntity.class).setParameter("a", a).setParameter("b", b).getResultList();
        if (found.isEmpty()) {
            return null;
        }
        LinkEntity link = found.get(0);
        Map<String, List<Exposure>> exposures = new HashMap<>();
        for (ExposureEntity e : em.createNamedQuery("Exposure.byLink", ExposureEntity.class).setParameter("link", link.getId()).getResultList()) {
            exposures.computeIfAbsent(e.getOrg(), k -> new ArrayList<>()).add(e.exposure());
        }
        exposures.replaceAll((k, v) -> List.copyOf(v));
        return new LinkSnapshot(a, b, link.getState(), exposures, Map.of(a, link.rulesOf(a), b, link.rulesOf(b)));
    }

    private void requireLinkQuota(String org) {
        Plan plan = directory.planOf(org);
        if (plan.links() >= 0 && countedLinks(org) >= plan.links()) {
            throw new RedsynException(403, org + " has reached the " + plan.links() + " links of its " + plan.name() + " plan",
                    Map.of("quota", true));
        }
    }

    private Membership requireAdmin(Caller caller, String org) {
        directory.requireAdmin(caller, org);
        return directory.membership(org, caller.personId());
    }

    private LinkEntity find(String x, String y) {
        String[] pair = LinkSnapshot.pair(x, y);
        List<LinkEntity> found = em.createNamedQuery("Link.byPair", LinkEntity.class).setParameter("a", pair[0])
                .setParameter("b", pair[1]).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private LinkEntity requireLive(String org, String other) {
        LinkEntity link = find(org, other);
        if (link == null) {
            throw RedsynException.notFound("no link between " + org + " and " + other + "; propose one first");
        }
        if (link.getState() == LinkState.REVOKED) {
            throw RedsynException.conflict("the link between " + org + " and " + other + " was revoked; propose it again");
        }
        return link;
    }

    private void log(LinkEntity link, long now, String org, String who, String change, String detail) {
        em.persist(new LinkChangeEntity(link.getId(), now, org, who, change, detail));
        cache.invalidate();
    }

    /** A link as {@code org} sees it: both sides' exposures and rules, and the recent changes. */
    private JsonObject view(LinkEntity link, String org) {
        String other = link.otherThan(org);
        Map<String, JsonArrayBuilder> exposed = new HashMap<>();
        exposed.put(org, Jsons.PROVIDER.createArrayBuilder());
        exposed.put(other, Jsons.PROVIDER.createArrayBuilder());
        for (ExposureEntity e : em.createNamedQuery("Exposure.byLink", ExposureEntity.class).setParameter("link", link.getId()).getResultList()) {
            Exposure x = e.exposure();
            exposed.get(e.getOrg()).add(Jsons.PROVIDER.createObjectBuilder().add("kind", x.kind().wire()).add("pattern", x.pattern()));
        }
        JsonArrayBuilder log = Jsons.PROVIDER.createArrayBuilder();
        for (LinkChangeEntity c : em.createNamedQuery("LinkChange.recent", LinkChangeEntity.class).setParameter("link", link.getId())
                .setMaxResults(LOG_ENTRIES).getResultList()) {
            log.add(Jsons.PROVIDER.createObjectBuilder().add("at", c.getAt() / 1000).add("org", c.getOrg()).add("who", c.getWho())
                    .add("change", c.getChange()).add("detail", c.getDetail() == null ? "" : c.getDetail()));
        }
        return Jsons.PROVIDER.createObjectBuilder()
                .add("org", org)
                .add("other", other)
                .add("state", link.getState().wire())
                .add("proposed_by", link.getProposedBy())
                .add("changed", link.getChangedAt() / 1000)
                .add("exposes", Jsons.PROVIDER.createObjectBuilder().add(org, exposed.get(org)).add(other, exposed.get(other)))
                .add("rules", Jsons.PROVIDER.createObjectBuilder().add(org, rules(link.rulesOf(org))).add(other, rules(link.rulesOf(other))))
                .add("log", log)
                .build();
    }

    private static JsonObjectBuilder rules(LinkRules r) {
        return Jsons.PROVIDER.createObjectBuilder().add("signed_only", r.signedOnly()).add("ips", r.ips().text());
    }
}
