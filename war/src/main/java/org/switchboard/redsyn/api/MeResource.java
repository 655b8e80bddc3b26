package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.directory.AccountService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /me}: who you are, your organisations, teams, pending invitations and the known versions. */
@SecurityRequirement(name = "node-token")
@Path("v1/me")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Inject
    AccountService accounts;

    @Operation(summary = "who you are: organisations, teams, pending invitations, known versions")
    @APIResponse(responseCode = "200", description = "the caller", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Me.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public JsonObject me(@Context SecurityContext security, @Context HttpServletRequest request) {
        return accounts.me(AuthFilter.caller(security), VersionFilter.used(request));
    }
}
