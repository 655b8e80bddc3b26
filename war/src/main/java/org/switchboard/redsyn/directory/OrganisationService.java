package org.switchboard.redsyn.directory;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Names;
import org.switchboard.redsyn.VersionDates;
import org.switchboard.redsyn.plan.Plan;
import org.switchboard.redsyn.plan.PlanCatalog;

/**
 * Organisations: their plan, members and memberships, teams and invitations. Writers are
 * transactional one by one; the cached lookups every request makes (organisation, plan, membership)
 * carry no interceptor: they join the caller's transaction if there is one, and a cache hit costs a
 * map lookup instead of a pass through the interceptor.
 */
@ApplicationScoped
public class OrganisationService {

    /** The team every organisation starts with. */
    public static final String GENERAL = "general";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    DirectoryCache cache;

    @Inject
    PlanCatalog plans;

    /** An organisation by handle, or null. */
    public OrgInfo org(String handle) {
        return cache.get("org:" + handle, key -> {
            List<OrgEntity> orgs = em.createNamedQuery("Org.byHandle", OrgEntity.class).setParameter("handle", handle).getResultList();
            if (orgs.isEmpty()) {
                return null;
            }
            OrgEntity o = orgs.get(0);
            return new OrgInfo(o.getId(), o.getHandle(), o.getPinnedVersion(), o.getCreatorPersonId());
        });
    }

    /** An organisation by handle, or 404. */
    public OrgInfo requireOrg(String handle) {
        OrgInfo org = org(handle);
        if (org == null) {
            throw RedsynException.notFound("no organisation " + handle);
        }
        return org;
    }

    /** The plan that applies to an organisation: its creator's. */
    public Plan planOf(String orgHandle) {
        OrgInfo org = org(orgHandle);
        if (org == null) {
            return Plan.FREE;
        }
        String name = cache.get("plan:" + org.creatorPersonId(), key -> {
            PersonEntity p = em.find(PersonEntity.class, org.creatorPersonId());
            return p == null ? null : p.getPlan();
        });
        Plan plan = plans.plan(name);
        return plan == null ? Plan.FREE : plan;
    }

    /** A person's membership of an organisation, or null when not a member. */
    public Membership membership(String orgHandle, long personId) {
        OrgInfo org = org(orgHandle);
        if (org == null) {
            return null;
        }
        return cache.get("member:" + org.id() + ":" + personId, key -> {
            List<MemberEntity> members = em.createNamedQuery("Member.byOrgAndPerson", MemberEntity.class)
                    .setParameter("org", org.id()).setParameter("person", personId).getResultList();
            if (members.isEmpty()) {
                return null;
            }
            MemberEntity m = members.get(0);
            List<String> teams = em.createNamedQuery("TeamMember.teamsOf", String.class)
                    .setParameter("org", org.id()).setParameter("person", personId).getResultList();
            return new Membership(org.id(), org.handle(), m.getHandle(), m.isAdmin(), Set.copyOf(teams));
        });
    }

    /** Creates an organisation; the creator becomes its admin, in team {@code general}. */
    @Transactional
    public JsonObject createOrg(Caller caller, String handle, String me, String version) {
        checkName(handle, "handle");
        checkName(me, "me");
        if (org(handle) != null) {
            throw RedsynException.conflict("organisation " + handle + " already exists");
        }
        long now = System.currentTimeMillis();
        OrgEntity org = new OrgEntity(handle, version == null ? VersionDates.latest() : version, caller.personId(), now);
        em.persist(org);
        em.flush();
        TeamEntity general = new TeamEntity(org.getId(), GENERAL);
        em.persist(general);
        em.flush();
        em.persist(new MemberEntity(org.getId(), caller.personId(), me, true));
        em.persist(new TeamMemberEntity(general.getId(), caller.personId()));
        cache.invalidate();
        return Jsons.PROVIDER.createObjectBuilder().add("handle", handle).add("me", me).add("admin", true)
                .add("teams", Jsons.PROVIDER.createArrayBuilder().add(GENERAL)).add("version", org.getPinnedVersion()).build();
    }

    /** Creates a team (admins only). */
    @Transactional
    public JsonObject createTeam(Caller caller, String orgHandle, String team) {
        OrgInfo org = requireAdmin(caller, orgHandle);
        checkName(team, "handle");
        if (team(org.id(), team) != null) {
            throw RedsynException.conflict("team " + team + " already exists in " + orgHandle);
        }
        em.persist(new TeamEntity(org.id(), team));
        cache.invalidate();
        return Jsons.PROVIDER.createObjectBuilder().add("org", orgHandle).add("handle", team).build();
    }

    /** Adds someone already in the organisation to a team (admins only). Returns true when added, false when already there. */
    @Transactional
    public boolean addTeamMember(Caller caller, String orgHandle, String teamHandle, String who) {
        OrgInfo org = requireAdmin(caller, orgHandle);
        TeamEntity team = team(org.id(), teamHandle);
        if (team == null) {
            throw RedsynException.notFound("no team " + teamHandle + " in " + orgHandle);
        }
        List<MemberEntity> members = em.createNamedQuery("Member.byOrgAndHandle", MemberEntity.class)
                .setParameter("org", org.id()).setParameter("handle", who).getResultList();
        if (members.isEmpty()) {
            throw RedsynException.unprocessable(who + " is not in " + orgHandle + "; invite them first");
        }
        long personId = members.get(0).getPersonId();
        if (!em.createNamedQuery("TeamMember.byTeamAndPerson", TeamMemberEntity.class).setParameter("team", team.getId())
                .setParameter("person", personId).getResultList().isEmpty()) {
            return false;
        }
        em.persist(new TeamMemberEntity(team.getId(), personId));
        cache.invalidate();
        return true;
    }

    /** Invites an e-mail into a team of the organisation (admins only). */
    @Transactional
    public JsonObject invite(Caller caller, String orgHandle, String email, String teamHandle) {
        OrgInfo org = requireAdmin(caller, orgHandle);
        String team = teamHandle == null ? GENERAL : teamHandle;
        if (team(org.id(), team) == null) {
            throw RedsynException.notFound("no team " + team + " in " + orgHandle);
        }
        InviteEntity invite = new InviteEntity(org.id(), email.trim().toLowerCase(Locale.ROOT), team, System.currentTimeMillis());
        em.persist(invite);
        em.flush();
        cache.invalidate();
        return Jsons.PROVIDER.createObjectBuilder().add("id", invite.getId()).add("org", orgHandle)
                .add("email", invite.getEmail()).add("team", team).build();
    }

    /** Accepts the caller's invitation to an organisation, under handle {@code me}. */
    @Transactional
    public JsonObject join(Caller caller, String orgHandle, String me) {
        OrgInfo org = requireOrg(orgHandle);
        checkName(me, "me");
        List<InviteEntity> invites = em.createNamedQuery("Invite.pendingForOrg", InviteEntity.class)
                .setParameter("email", caller.email()).setParameter("org", org.id()).getResultList();
        if (invites.isEmpty()) {
            throw RedsynException.forbidden("no pending invitation to " + orgHandle + " for " + caller.email());
        }
        if (membership(orgHandle, caller.personId()) != null) {
            throw RedsynException.conflict("you are already in " + orgHandle);
        }
        if (!em.createNamedQuery("Member.byOrgAndHandle", MemberEntity.class).setParameter("org", org.id())
                .setParameter("handle", me).getResultList().isEmpty()) {
            throw RedsynException.conflict("handle " + me + " is taken in " + orgHandle);
        }
        em.persist(new MemberEntity(org.id(), caller.personId(), me, false));
        JsonArrayBuilder teams = Jsons.PROVIDER.createArrayBuilder();
        Set<String> joined = new LinkedHashSet<>();
        for (InviteEntity invite : invites) {
            TeamEntity team = team(org.id(), invite.getTeam());
            if (team != null && joined.add(team.getHandle())) {
                em.persist(new TeamMemberEntity(team.getId(), caller.personId()));
                teams.add(team.getHandle());
            }
            invite.accept();
        }
        cache.invalidate();
        return Jsons.PROVIDER.createObjectBuilder().add("org", orgHandle).add("me", me).add("teams", teams).build();
    }

    /** The organisations a person is in. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<String> orgsOf(long personId) {
        return em.createNamedQuery("Member.byPerson", MemberEntity.class).setParameter("person", personId).getResultList()
                .stream().map(m -> em.find(OrgEntity.class, m.getOrgId()).getHandle()).toList();
    }

    /** The organisation if the caller is one of its admins; 403 otherwise (404 when it does not exist). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public OrgInfo requireAdmin(Caller caller, String orgHandle) {
        OrgInfo org = requireOrg(orgHandle);
        Membership m = membership(orgHandle, caller.personId());
        if (m == null || !m.admin()) {
            throw RedsynException.forbidden("only an admin of " + orgHandle + " can do that");
        }
        return org;
    }

    /** The membership if the caller is in the organisation; 403 otherwise (404 when it does not exist). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Membership requireMember(Caller caller, String orgHandle) {
        requireOrg(orgHandle);
        Membership m = membership(orgHandle, caller.personId());
        if (m == null) {
            throw RedsynException.forbidden("you are not in " + orgHandle);
        }
        return m;
    }

    private TeamEntity team(long orgId, String handle) {
        List<TeamEntity> teams = em.createNamedQuery("Team.byOrgAndHandle", TeamEntity.class)
                .setParameter("org", orgId).setParameter("handle", handle).getResultList();
        return teams.isEmpty() ? null : teams.get(0);
    }

    /** True when the team exists in the organisation. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean teamExists(String orgHandle, String team) {
        OrgInfo org = org(orgHandle);
        return org != null && team(org.id(), team) != null;
    }

    private static void checkName(String name, String field) {
        if (!Names.valid(name)) {
            throw RedsynException.unprocessable(field + " must be lower-case letters, digits, '.', '-' or '_'");
        }
    }
}
