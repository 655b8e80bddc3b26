package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.link.LinkService;

/** Organisation links: propose/accept, expose, rules, revoke ({@code GET /links} is {@link LinkListResource}). */
@Path("v1/orgs/{org}/links")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class LinkResource {

    @Inject
    LinkService links;

    @Context
    SecurityContext security;

    @POST
    public Response propose(@PathParam("org") String org, @Valid @NotNull LinkRequests.Propose body) {
        LinkService.Outcome outcome = links.propose(AuthFilter.caller(security), org, body.other);
        return Response.status(outcome.status()).entity(outcome.link()).build();
    }

    @PUT
    @Path("{other}/expose")
    public JsonObject expose(@PathParam("org") String org, @PathParam("other") String other, @Valid @NotNull LinkRequests.Expose body) {
        return links.expose(AuthFilter.caller(security), org, other, body.kind, body.pattern, body.on == null || body.on);
    }

    @PUT
    @Path("{other}/rules")
    public JsonObject rules(@PathParam("org") String org, @PathParam("other") String other, @Valid @NotNull LinkRequests.Rules body) {
        return links.rules(AuthFilter.caller(security), org, other, body.signedOnly, body.ips);
    }

    @POST
    @Path("{other}/revoke")
    public JsonObject revoke(@PathParam("org") String org, @PathParam("other") String other) {
        return links.revoke(AuthFilter.caller(security), org, other);
    }
}
