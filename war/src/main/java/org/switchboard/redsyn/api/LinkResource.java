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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** Organisation links: propose/accept, expose, rules, revoke ({@code GET /links} is {@link LinkListResource}). */
@SecurityRequirement(name = "node-token")
@Path("v1/orgs/{org}/links")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class LinkResource {

    @Inject
    LinkService links;

    @Context
    SecurityContext security;

    @Operation(summary = "propose a link, or accept the other side's proposal")
    @APIResponse(responseCode = "201", description = "proposed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Link.class)))
    @APIResponse(responseCode = "200", description = "accepted or unchanged", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Link.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    public Response propose(@PathParam("org") String org, @Valid @NotNull LinkRequests.Propose body) {
        LinkService.Outcome outcome = links.propose(AuthFilter.caller(security), org, body.other);
        return Response.status(outcome.status()).entity(outcome.link()).build();
    }

    @Operation(summary = "expose (or with on: false, withdraw) agents or topics to the other side")
    @APIResponse(responseCode = "200", description = "the link", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Link.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    @Path("{other}/expose")
    public JsonObject expose(@PathParam("org") String org, @PathParam("other") String other, @Valid @NotNull LinkRequests.Expose body) {
        return links.expose(AuthFilter.caller(security), org, other, body.kind, body.pattern, body.on == null || body.on);
    }

    @Operation(summary = "what may come in from the other side")
    @APIResponse(responseCode = "200", description = "the link", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Link.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    @Path("{other}/rules")
    public JsonObject rules(@PathParam("org") String org, @PathParam("other") String other, @Valid @NotNull LinkRequests.Rules body) {
        return links.rules(AuthFilter.caller(security), org, other, body.signedOnly, body.ips);
    }

    @Operation(summary = "end the link, from either side")
    @APIResponse(responseCode = "200", description = "the link", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Link.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{other}/revoke")
    public JsonObject revoke(@PathParam("org") String org, @PathParam("other") String other) {
        return links.revoke(AuthFilter.caller(security), org, other);
    }
}
