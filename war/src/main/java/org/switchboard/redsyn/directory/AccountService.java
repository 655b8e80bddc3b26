package org.switchboard.redsyn.directory;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Locale;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Names;
import org.switchboard.redsyn.VersionDates;
import org.switchboard.redsyn.plan.PlanCatalog;

/**
 * Accounts: persons, their plans, nodes and node tokens, authentication of a bearer token, and the
 * person's own view ({@code GET /me}). Writers are transactional one by one; the cached lookups every
 * request makes (token, pinned version) carry no interceptor: they join the caller's transaction if
 * there is one, and a cache hit costs a map lookup instead of a pass through the interceptor.
 */
@ApplicationScoped
public class AccountService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    DirectoryCache cache;

    @Inject
    PlanCatalog plans;

    @Inject
    OrganisationService organisations;

    /** Creates a person (operator bootstrap). */
    @Transactional
    public PersonEntity createPerson(String email, String plan) {
        String normalized = email.trim().toLowerCase(Locale.ROOT);
        String planName = plan == null ? plans.defaultPlan() : plan.toLowerCase(Locale.ROOT);
        requirePlan(planName);
        if (!em.createNamedQuery("Person.byEmail", PersonEntity.class).setParameter("email", normalized).getResultList().isEmpty()) {
            throw RedsynException.conflict("a person with e-mail " + normalized + " already exists");
        }
        PersonEntity person = new PersonEntity(normalized, planName, System.currentTimeMillis());
        em.persist(person);
        em.flush();
        cache.invalidate();
        return person;
    }

    /** Puts a person on another plan. */
    @Transactional
    public PersonEntity setPlan(long personId, String plan) {
        String planName = plan.toLowerCase(Locale.ROOT);
        requirePlan(planName);
        PersonEntity person = person(personId);
        person.setPlan(planName);
        cache.invalidate();
        return person;
    }

    private void requirePlan(String planName) {
        if (plans.plan(planName) == null) {
            throw RedsynException.unprocessable("plan must be one of " + String.join(", ", plans.names()));
        }
    }

    /** A person, or 404. */
    @Transactional
    public PersonEntity person(long personId) {
        PersonEntity person = em.find(PersonEntity.class, personId);
        if (person == null) {
            throw RedsynException.notFound("no person " + personId);
        }
        return person;
    }

    /** Creates a node of a person and returns its token, which is never shown again. */
    @Transactional
    public String createNode(long personId, String name) {
        person(personId);
        if (!Names.valid(name)) {
            throw RedsynException.unprocessable("node name must be lower-case letters, digits, '.', '-' or '_'");
        }
        if (!em.createNamedQuery("Node.byPersonAndName", NodeEntity.class).setParameter("person", personId)
                .setParameter("name", name).getResultList().isEmpty()) {
            throw RedsynException.conflict("node " + name + " already exists");
        }
        String token = Tokens.newToken();
        em.persist(new NodeEntity(personId, name, Tokens.hash(token), System.currentTimeMillis()));
        em.flush();
        cache.invalidate();
        return token;
    }

    /** The caller a bearer token stands for, or null when the token is unknown. */
    public Caller authenticate(String token) {
        return cache.get("token:" + Tokens.hash(token), key -> {
            List<NodeEntity> nodes = em.createNamedQuery("Node.byTokenHash", NodeEntity.class)
                    .setParameter("hash", key.substring(6)).getResultList();
            if (nodes.isEmpty()) {
                return null;
            }
            NodeEntity node = nodes.get(0);
            PersonEntity person = em.find(PersonEntity.class, node.getPersonId());
            return new Caller(person.getId(), person.getEmail(), node.getId(), node.getName());
        });
    }

    /** The API date of the caller's first organisation, or null when it has none. */
    public String pinnedVersion(long personId) {
        return cache.get("pinned:" + personId, key -> {
            List<MemberEntity> members = em.createNamedQuery("Member.byPerson", MemberEntity.class)
                    .setParameter("person", personId).setMaxResults(1).getResultList();
            if (members.isEmpty()) {
                return null;
            }
            OrgEntity org = em.find(OrgEntity.class, members.get(0).getOrgId());
            return org == null ? null : org.getPinnedVersion();
        });
    }

    /** {@code GET /me}: the person, its node, organisations, teams and pending invitations. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject me(Caller caller, String version) {
        PersonEntity person = person(caller.personId());
        JsonArrayBuilder orgs = Jsons.PROVIDER.createArrayBuilder();
        JsonArrayBuilder allTeams = Jsons.PROVIDER.createArrayBuilder();
        for (MemberEntity m : em.createNamedQuery("Member.byPerson", MemberEntity.class).setParameter("person", caller.personId()).getResultList()) {
            OrgEntity org = em.find(OrgEntity.class, m.getOrgId());
            List<String> teams = em.createNamedQuery("TeamMember.teamsOf", String.class)
                    .setParameter("org", org.getId()).setParameter("person", caller.personId()).getResultList();
            JsonArrayBuilder teamList = Jsons.PROVIDER.createArrayBuilder();
            for (String t : teams) {
                teamList.add(t);
                allTeams.add(org.getHandle() + "/" + t);
            }
            orgs.add(Jsons.PROVIDER.createObjectBuilder().add("handle", org.getHandle()).add("me", m.getHandle())
                    .add("admin", m.isAdmin()).add("teams", teamList).add("version", org.getPinnedVersion())
                    .add("plan", organisations.planOf(org.getHandle()).name()));
        }
        JsonArrayBuilder invites = Jsons.PROVIDER.createArrayBuilder();
        for (InviteEntity i : em.createNamedQuery("Invite.pendingFor", InviteEntity.class).setParameter("email", person.getEmail()).getResultList()) {
            OrgEntity org = em.find(OrgEntity.class, i.getOrgId());
            invites.add(Jsons.PROVIDER.createObjectBuilder().add("id", i.getId()).add("org", org.getHandle()).add("team", i.getTeam()));
        }
        JsonArrayBuilder versions = Jsons.PROVIDER.createArrayBuilder();
        VersionDates.KNOWN.forEach(versions::add);
        return Jsons.PROVIDER.createObjectBuilder()
                .add("person", Jsons.PROVIDER.createObjectBuilder().add("id", person.getId()).add("email", person.getEmail()).add("plan", person.getPlan()))
                .add("email", person.getEmail())
                .add("node", caller.node())
                .add("orgs", orgs)
                .add("teams", allTeams)
                .add("invites", invites)
                .add("versions", versions)
                .add("version", version)
                .build();
    }
}
