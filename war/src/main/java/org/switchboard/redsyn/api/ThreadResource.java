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

/** {@code GET /threads/{id}}: the thread, as far as the caller may see it. */
@Path("v1/threads/{id}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ThreadResource {

    @Inject
    SessionService sessions;

    @GET
    public JsonObject thread(@Context SecurityContext security, @PathParam("id") String id, @QueryParam("cursor") String cursor) {
        return sessions.thread(AuthFilter.caller(security), id, cursor);
    }
}
