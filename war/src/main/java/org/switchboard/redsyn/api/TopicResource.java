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
import org.switchboard.redsyn.topic.TopicService;

/** {@code GET /topics}: the topics of the caller's organisations and who listens to them. */
@Path("v1/topics")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TopicResource {

    @Inject
    TopicService topics;

    @GET
    public JsonObject list(@Context SecurityContext security, @QueryParam("cursor") String cursor) {
        return topics.topics(AuthFilter.caller(security), cursor);
    }
}
