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

/** An agent's webhook: set it (the secret is in this reply only) or remove it (back to the inbox). */
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

    @DELETE
    public JsonObject remove() {
        return webhooks.remove(AuthFilter.caller(security), address());
    }

    private Address address() {
        return new Address(org, team, user, agent, null);
    }
}
