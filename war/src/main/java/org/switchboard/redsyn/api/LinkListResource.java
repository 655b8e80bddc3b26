package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.link.LinkService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /links}: the caller's links with state, exposures, rules and recent changes. */
@SecurityRequirement(name = "node-token")
@Path("v1/links")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LinkListResource {

    @Inject
    LinkService links;

    @Operation(summary = "your links with state, exposures, rules and recent changes, one bounded page at a time (?cursor=)")
    @APIResponse(responseCode = "200", description = "a page of links", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Links.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public JsonObject list(@Context SecurityContext security, @QueryParam("cursor") String cursor) {
        return links.list(AuthFilter.caller(security), cursor);
    }
}
