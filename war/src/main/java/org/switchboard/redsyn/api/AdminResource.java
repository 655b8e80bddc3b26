package org.switchboard.redsyn.api;

import org.switchboard.json.Jsons;

import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.enterprise.context.RequestScoped;
import org.switchboard.redsyn.directory.AccountService;
import org.switchboard.redsyn.directory.PersonEntity;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** Operator bootstrap: persons, their first node token, their plan. Bearer {@code redsyn.admin.token}. */
@SecurityRequirement(name = "admin-token")
@Path("admin/persons")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class AdminResource {

    @Inject
    AccountService accounts;

    @Operation(summary = "create a person (operator bootstrap)")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Person.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    public Response createPerson(@Valid @NotNull Requests.NewPerson body) {
        return Response.status(201).entity(person(accounts.createPerson(body.email, body.plan))).build();
    }

    @Operation(summary = "create a node of a person; its token is in this reply only")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.NodeToken.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{id}/nodes")
    public Response createNode(@PathParam("id") long id, @Valid @NotNull Requests.NewNode body) {
        String token = accounts.createNode(id, body.name);
        return Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder().add("node", body.name).add("token", token).build()).build();
    }

    @Operation(summary = "change a person's plan")
    @APIResponse(responseCode = "200", description = "changed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Person.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    @Path("{id}/plan")
    public JsonObject setPlan(@PathParam("id") long id, @Valid @NotNull Requests.PlanChange body) {
        return person(accounts.setPlan(id, body.plan));
    }

    private static JsonObject person(PersonEntity p) {
        return Jsons.PROVIDER.createObjectBuilder().add("id", p.getId()).add("email", p.getEmail()).add("plan", p.getPlan()).build();
    }
}
