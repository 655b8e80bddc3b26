package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.topic.TopicService;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code PUT /subscriptions} and {@code POST /subscriptions/remove}: an agent starts or stops listening to a topic. */
@SecurityRequirement(name = "node-token")
@Path("v1/subscriptions")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class SubscriptionResource {

    @Inject
    TopicService topics;

    @Context
    SecurityContext security;

    /** The body of both calls: one of the caller's agents (full address) and a topic. */
    public static class Body {
        @NotNull
        @Size(max = 320)
        public String agent;
        @NotNull
        @Size(max = 320)
        public String topic;
    }

    @Operation(summary = "one of your agents starts listening to a topic")
    @APIResponse(responseCode = "201", description = "subscribed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Subscription.class)))
    @APIResponse(responseCode = "200", description = "already subscribed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Subscription.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    public Response subscribe(@Valid @NotNull Body body) {
        TopicService.Subscription s = topics.subscribe(AuthFilter.caller(security), body.agent, body.topic);
        return Response.status(s.changed() ? 201 : 200).entity(s.json()).build();
    }

    @Operation(summary = "one of your agents stops listening to a topic")
    @APIResponse(responseCode = "200", description = "the outcome", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Subscription.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("remove")
    public JsonObject remove(@Valid @NotNull Body body) {
        return topics.unsubscribe(AuthFilter.caller(security), body.agent, body.topic).json();
    }
}
