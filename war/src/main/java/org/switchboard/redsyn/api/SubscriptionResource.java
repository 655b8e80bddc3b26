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

/** {@code PUT /subscriptions} and {@code POST /subscriptions/remove}: an agent starts or stops listening to a topic. */
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

    @PUT
    public Response subscribe(@Valid @NotNull Body body) {
        TopicService.Subscription s = topics.subscribe(AuthFilter.caller(security), body.agent, body.topic);
        return Response.status(s.changed() ? 201 : 200).entity(s.json()).build();
    }

    @POST
    @Path("remove")
    public JsonObject remove(@Valid @NotNull Body body) {
        return topics.unsubscribe(AuthFilter.caller(security), body.agent, body.topic).json();
    }
}
