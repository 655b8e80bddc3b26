package org.switchboard.redsyn.directory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import org.switchboard.redsyn.plan.Plan;

/**
 * The directory as the REDSYN transport and the inbox still call it: each method hands over to
 * {@link AccountService} (persons, nodes, authentication) or {@link OrganisationService}
 * (organisations, teams, members, invitations), which hold the rules. Services use those two
 * directly; this stays until the JAX-RS resources and the inbox are moved over.
 */
@ApplicationScoped
public class DirectoryService {

    /** The team every organisation starts with. */
    public static final String GENERAL = OrganisationService.GENERAL;

    @Inject
    AccountService accounts;

    @Inject
    OrganisationService organisations;

    /** See {@link AccountService#createPerson}. */
    public PersonEntity createPerson(String email, String plan) {
        return accounts.createPerson(email, plan);
    }

    /** See {@link AccountService#setPlan}. */
    public PersonEntity setPlan(long personId, String plan) {
        return accounts.setPlan(personId, plan);
    }

    /** See {@link AccountService#person}. */
    public PersonEntity person(long personId) {
        return accounts.person(personId);
    }

    /** See {@link AccountService#createNode}. */
    public String createNode(long personId, String name) {
        return accounts.createNode(personId, name);
    }

    /** See {@link AccountService#authenticate}. */
    public Caller authenticate(String token) {
        return accounts.authenticate(token);
    }

    /** See {@link AccountService#pinnedVersion}. */
    public String pinnedVersion(long personId) {
        return accounts.pinnedVersion(personId);
    }

    /** See {@link AccountService#me}. */
    public JsonObject me(Caller caller, String version) {
        return accounts.me(caller, version);
    }

    /** See {@link OrganisationService#org}. */
    public OrgInfo org(String handle) {
        return organisations.org(handle);
    }

    /** See {@link OrganisationService#requireOrg}. */
    public OrgInfo requireOrg(String handle) {
        return organisations.requireOrg(handle);
    }

    /** See {@link OrganisationService#planOf}. */
    public Plan planOf(String orgHandle) {
        return organisations.planOf(orgHandle);
    }

    /** See {@link OrganisationService#membership}. */
    public Membership membership(String orgHandle, long personId) {
        return organisations.membership(orgHandle, personId);
    }

    /** See {@link OrganisationService#createOrg}. */
    public JsonObject createOrg(Caller caller, String handle, String me, String version) {
        return organisations.createOrg(caller, handle, me, version);
    }

    /** See {@link OrganisationService#createTeam}. */
    public JsonObject createTeam(Caller caller, String orgHandle, String team) {
        return organisations.createTeam(caller, orgHandle, team);
    }

    /** See {@link OrganisationService#addTeamMember}. */
    public boolean addTeamMember(Caller caller, String orgHandle, String teamHandle, String who) {
        return organisations.addTeamMember(caller, orgHandle, teamHandle, who);
    }

    /** See {@link OrganisationService#invite}. */
    public JsonObject invite(Caller caller, String orgHandle, String email, String teamHandle) {
        return organisations.invite(caller, orgHandle, email, teamHandle);
    }

    /** See {@link OrganisationService#join}. */
    public JsonObject join(Caller caller, String orgHandle, String me) {
        return organisations.join(caller, orgHandle, me);
    }

    /** See {@link OrganisationService#orgsOf}. */
    public List<String> orgsOf(long personId) {
        return organisations.orgsOf(personId);
    }

    /** See {@link OrganisationService#requireAdmin}. */
    public OrgInfo requireAdmin(Caller caller, String orgHandle) {
        return organisations.requireAdmin(caller, orgHandle);
    }

    /** See {@link OrganisationService#requireMember}. */
    public Membership requireMember(Caller caller, String orgHandle) {
        return organisations.requireMember(caller, orgHandle);
    }

    /** See {@link OrganisationService#teamExists}. */
    public boolean teamExists(String orgHandle, String team) {
        return organisations.teamExists(orgHandle, team);
    }
}
