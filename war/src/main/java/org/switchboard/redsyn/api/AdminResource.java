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

/** Operator bootstrap: persons, their first node token, their plan. Bearer {@code redsyn.admin.token}. */
@Path("admin/persons")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class AdminResource {

    @Inject
    AccountService accounts;

    @POST
    public Response createPerson(@Valid @NotNull Requests.NewPerson body) {
        return Response.status(201).entity(person(accounts.createPerson(body.email, body.plan))).build();
    }

    @POST
    @Path("{id}/nodes")
    public Response createNode(@PathParam("id") long id, @Valid @NotNull Requests.NewNode body) {
        String token = accounts.createNode(id, body.name);
        return Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder().add("node", body.name).add("token", token).build()).build();
    }

    @PUT
    @Path("{id}/plan")
    public JsonObject setPlan(@PathParam("id") long id, @Valid @NotNull Requests.PlanChange body) {
        return person(accounts.setPlan(id, body.plan));
    }

    private static JsonObject person(PersonEntity p) {
        return Jsons.PROVIDER.createObjectBuilder().add("id", p.getId()).add("email", p.getEmail()).add("plan", p.getPlan()).build();
    }
}
