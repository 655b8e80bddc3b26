package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.webhook.WebhookService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** An agent's webhook: set it (the secret is in this reply only) or remove it (back to the inbox). */
@SecurityRequirement(name = "node-token")
@Path("v1/agents/{org}/{team}/{user}/{agent}/webhook")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {

    @Inject
    WebhookService webhooks;

    @Context
    SecurityContext security;

    @PathParam("org")
    String org;
    @PathParam("team")
    String team;
    @PathParam("user")
    String user;
    @PathParam("agent")
    String agent;

    @Operation(summary = "push the agent's messages to a URL; the signing secret is in this reply only")
    @APIResponse(responseCode = "201", description = "set", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.WebhookSet.class)))
    @APIResponse(responseCode = "200", description = "replaced", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.WebhookSet.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.WebhookRequest.class)))
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Response set(JsonObject body) {
        if (body == null) {
            throw RedsynException.unprocessable("the body {\"url\": \"https://...\"} is required");
        }
        if (body.containsKey("url") && !(body.get("url") instanceof JsonString)) {
            throw RedsynException.unprocessable("url must be a string");
        }
        String url = body.containsKey("url") ? body.getString("url") : null;
        WebhookService.Set result = webhooks.set(AuthFilter.caller(security), address(), url);
        return Response.status(result.created() ? 201 : 200).entity(result.reply()).build();
    }

    @Operation(summary = "remove the webhook: back to the inbox")
    @APIResponse(responseCode = "200", description = "removed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.WebhookRemoved.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @DELETE
    public JsonObject remove() {
        return webhooks.remove(AuthFilter.caller(security), address());
    }

    private Address address() {
        return new Address(org, team, user, agent, null);
    }
}
