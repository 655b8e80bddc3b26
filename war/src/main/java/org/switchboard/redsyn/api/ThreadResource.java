package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.message.SessionService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /threads/{id}}: the thread, as far as the caller may see it. */
@SecurityRequirement(name = "node-token")
@Path("v1/threads/{id}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ThreadResource {

    @Inject
    SessionService sessions;

    @Operation(summary = "a thread, as far as the caller may see it, one bounded page at a time (?cursor=)")
    @APIResponse(responseCode = "200", description = "a page of the thread", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Thread.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public JsonObject thread(@Context SecurityContext security, @PathParam("id") String id, @QueryParam("cursor") String cursor) {
        return sessions.thread(AuthFilter.caller(security), id, cursor);
    }
}
