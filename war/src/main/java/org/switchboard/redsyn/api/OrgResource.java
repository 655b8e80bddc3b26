package org.switchboard.redsyn.api;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.limit.UsageService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** Organisations: create, teams, team members, invitations, join, usage. */
@SecurityRequirement(name = "node-token")
@Path("v1/orgs")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class OrgResource {

    @Inject
    OrganisationService organisations;

    @Inject
    UsageService usage;

    @Context
    SecurityContext security;

    @Operation(summary = "create an organisation; the caller is its admin, in team general")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.OrgCreated.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    public Response create(@Context HttpServletRequest request, @Valid @NotNull Requests.NewOrg body) {
        return created(organisations.createOrg(AuthFilter.caller(security), body.handle, body.me, VersionFilter.used(request)));
    }

    @Operation(summary = "create a team")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.TeamCreated.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{org}/teams")
    public Response team(@PathParam("org") String org, @Valid @NotNull Requests.NewTeam body) {
        return created(organisations.createTeam(AuthFilter.caller(security), org, body.handle));
    }

    @Operation(summary = "add a member of the organisation to a team")
    @APIResponse(responseCode = "201", description = "added", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.TeamMemberAdded.class)))
    @APIResponse(responseCode = "200", description = "already a member", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.TeamMemberAdded.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{org}/teams/{team}/members")
    public Response member(@PathParam("org") String org, @PathParam("team") String team, @Valid @NotNull Requests.NewTeamMember body) {
        boolean added = organisations.addTeamMember(AuthFilter.caller(security), org, team, body.who);
        JsonObject reply = Jsons.PROVIDER.createObjectBuilder().add("org", org).add("team", team).add("who", body.who).add("added", added).build();
        return Response.status(added ? 201 : 200).entity(reply).build();
    }

    @Operation(summary = "invite a person by email")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Invite.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{org}/invites")
    public Response invite(@PathParam("org") String org, @Valid @NotNull Requests.NewInvite body) {
        return created(organisations.invite(AuthFilter.caller(security), org, body.email, body.team));
    }

    @Operation(summary = "join an organisation you were invited to")
    @APIResponse(responseCode = "201", description = "joined", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Joined.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{org}/join")
    public Response join(@PathParam("org") String org, @Valid @NotNull Requests.Join body) {
        return created(organisations.join(AuthFilter.caller(security), org, body.me));
    }

    @Operation(summary = "usage against the plan")
    @APIResponse(responseCode = "200", description = "usage and limits", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Usage.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("{org}/usage")
    public JsonObject usage(@PathParam("org") String org) {
        return usage.usage(AuthFilter.caller(security), org);
    }

    private static Response created(JsonObject body) {
        return Response.status(201).entity(body).build();
    }
}
