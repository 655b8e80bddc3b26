package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Announcement;
import org.switchboard.redsyn.directory.Policy;
import org.switchboard.redsyn.keys.NodeKeyService;
import org.switchboard.redsyn.message.SessionService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** An agent: announce, look up, and its sessions. */
@SecurityRequirement(name = "node-token")
@Path("v1/agents/{org}/{team}/{user}/{agent}")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class AgentResource {

    @Inject
    AgentService agents;

    @Inject
    SessionService sessions;

    @Inject
    NodeKeyService keys;

    @Context
    SecurityContext security;

    @PathParam("org")
    String org;
    @PathParam("team")
    String team;
    @PathParam("user")
    String user;
    @PathParam("agent")
    String agent;

    @Operation(summary = "announce one of your agents (the first time creates it)")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Agent.class)))
    @APIResponse(responseCode = "200", description = "updated", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Agent.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    public Response announce(@Valid @NotNull Requests.Announce body) {
        Policy policy = new Policy(body.allow, body.trust, Boolean.TRUE.equals(body.signedOnly), Boolean.TRUE.equals(body.encryptedOnly));
        Announcement a = new Announcement(body.description, body.adapter, Boolean.TRUE.equals(body.listening), policy);
        AgentService.Announced result = agents.announce(AuthFilter.caller(security), address(), a);
        return Response.status(result.created() ? 201 : 200).entity(result.agent()).build();
    }

    @Operation(summary = "an agent: presence, policy, sessions")
    @APIResponse(responseCode = "200", description = "the agent", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Agent.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public JsonObject get() {
        return agents.get(AuthFilter.caller(security), address());
    }

    /** {@code GET /agents/{…}/key}: the keys of the node that last listened for the agent. */
    @Operation(summary = "the keys of the node that last listened for the agent")
    @APIResponse(responseCode = "200", description = "the keys", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.AgentKey.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("key")
    public JsonObject key() {
        return keys.agentKey(AuthFilter.caller(security), address());
    }

    @Operation(summary = "a session, as far as the caller may see it; its messages one bounded page at a time (?cursor=)")
    @APIResponse(responseCode = "200", description = "the session", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Session.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("sessions/{sid}")
    public JsonObject session(@PathParam("sid") String sid, @QueryParam("cursor") String cursor) {
        return sessions.get(AuthFilter.caller(security), address(), sid, cursor);
    }

    @Operation(summary = "set a session's title (owner only)")
    @APIResponse(responseCode = "200", description = "changed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.SessionSummary.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    @Path("sessions/{sid}")
    public JsonObject title(@PathParam("sid") String sid, @Valid @NotNull Requests.Title body) {
        return sessions.setTitle(AuthFilter.caller(security), address(), sid, body.title);
    }

    @Operation(summary = "close a session (owner only)")
    @APIResponse(responseCode = "200", description = "closed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.SessionSummary.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("sessions/{sid}/close")
    public JsonObject close(@PathParam("sid") String sid) {
        return sessions.close(AuthFilter.caller(security), address(), sid);
    }

    private Address address() {
        return new Address(org, team, user, agent, null);
    }
}
