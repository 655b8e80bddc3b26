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
import org.switchboard.redsyn.directory.AgentService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /directory?online=1&sessions=1}: the agents the caller reaches. */
@SecurityRequirement(name = "node-token")
@Path("v1/directory")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DirectoryResource {

    @Inject
    AgentService agents;

    @Operation(summary = "the agents the caller reaches, one bounded page at a time (?cursor=)")
    @APIResponse(responseCode = "200", description = "a page of agents", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Directory.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public JsonObject list(@Context SecurityContext security, @QueryParam("online") String online, @QueryParam("sessions") String sessions,
                           @QueryParam("cursor") String cursor) {
        return agents.directory(AuthFilter.caller(security), Flags.on(online), Flags.on(sessions), cursor);
    }
}
