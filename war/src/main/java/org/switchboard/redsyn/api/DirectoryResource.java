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

/** {@code GET /directory?online=1&sessions=1}: the agents the caller reaches. */
@Path("v1/directory")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DirectoryResource {

    @Inject
    AgentService agents;

    @GET
    public JsonObject list(@Context SecurityContext security, @QueryParam("online") String online, @QueryParam("sessions") String sessions,
                           @QueryParam("cursor") String cursor) {
        return agents.directory(AuthFilter.caller(security), Flags.on(online), Flags.on(sessions), cursor);
    }
}
