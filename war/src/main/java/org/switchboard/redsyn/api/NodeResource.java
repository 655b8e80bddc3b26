package org.switchboard.redsyn.api;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.AccountService;
import org.switchboard.redsyn.keys.NodeKeyService;

/**
 * {@code POST /nodes}: another node (token) of the caller's person, as {@code syn login --name} does;
 * {@code PUT /nodes/key}: the calling node's public keys.
 */
@Path("v1/nodes")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class NodeResource {

    @Inject
    AccountService accounts;

    @Inject
    NodeKeyService keys;

    @POST
    public Response create(@Context SecurityContext security, @Valid @NotNull Requests.NewNode body) {
        Caller caller = AuthFilter.caller(security);
        String token = accounts.createNode(caller.personId(), body.name);
        return Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder().add("node", body.name).add("token", token).build()).build();
    }

    @PUT
    @Path("key")
    public JsonObject registerKey(@Context SecurityContext security, JsonObject body) {
        return keys.register(AuthFilter.caller(security), body);
    }
}
