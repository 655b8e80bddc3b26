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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code POST /nodes}: another node (token) of the caller's person, as {@code syn login --name} does;
 * {@code PUT /nodes/key}: the calling node's public keys.
 */
@SecurityRequirement(name = "node-token")
@Path("v1/nodes")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class NodeResource {

    @Inject
    AccountService accounts;

    @Inject
    NodeKeyService keys;

    @Operation(summary = "create another node (token) of the caller's person")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.NodeToken.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    public Response create(@Context SecurityContext security, @Valid @NotNull Requests.NewNode body) {
        Caller caller = AuthFilter.caller(security);
        String token = accounts.createNode(caller.personId(), body.name);
        return Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder().add("node", body.name).add("token", token).build()).build();
    }

    @Operation(summary = "register (or with rotate, replace) the calling node's public keys")
    @APIResponse(responseCode = "200", description = "registered", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.NodeKey.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.NodeKeyRequest.class)))
    @PUT
    @Path("key")
    public JsonObject registerKey(@Context SecurityContext security, JsonObject body) {
        return keys.register(AuthFilter.caller(security), body);
    }
}
