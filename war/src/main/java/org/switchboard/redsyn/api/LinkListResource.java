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
import org.switchboard.redsyn.link.LinkService;

/** {@code GET /links}: the caller's links with state, exposures, rules and recent changes. */
@Path("v1/links")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LinkListResource {

    @Inject
    LinkService links;

    @GET
    public JsonObject list(@Context SecurityContext security, @QueryParam("cursor") String cursor) {
        return links.list(AuthFilter.caller(security), cursor);
    }
}
