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

/** An agent: announce, look up, and its sessions. */
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

    @PUT
    public Response announce(@Valid @NotNull Requests.Announce body) {
        Policy policy = new Policy(body.allow, body.trust, Boolean.TRUE.equals(body.signedOnly), Boolean.TRUE.equals(body.encryptedOnly));
        Announcement a = new Announcement(body.description, body.adapter, Boolean.TRUE.equals(body.listening), policy);
        AgentService.Announced result = agents.announce(AuthFilter.caller(security), address(), a);
        return Response.status(result.created() ? 201 : 200).entity(result.agent()).build();
    }

    @GET
    public JsonObject get() {
        return agents.get(AuthFilter.caller(security), address());
    }

    /** {@code GET /agents/{…}/key}: the keys of the node that last listened for the agent. */
    @GET
    @Path("key")
    public JsonObject key() {
        return keys.agentKey(AuthFilter.caller(security), address());
    }

    @GET
    @Path("sessions/{sid}")
    public JsonObject session(@PathParam("sid") String sid, @QueryParam("cursor") String cursor) {
        return sessions.get(AuthFilter.caller(security), address(), sid, cursor);
    }

    @PUT
    @Path("sessions/{sid}")
    public JsonObject title(@PathParam("sid") String sid, @Valid @NotNull Requests.Title body) {
        return sessions.setTitle(AuthFilter.caller(security), address(), sid, body.title);
    }

    @POST
    @Path("sessions/{sid}/close")
    public JsonObject close(@PathParam("sid") String sid) {
        return sessions.close(AuthFilter.caller(security), address(), sid);
    }

    private Address address() {
        return new Address(org, team, user, agent, null);
    }
}
