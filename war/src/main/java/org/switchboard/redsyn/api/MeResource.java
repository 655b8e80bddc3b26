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

/** {@code GET /me}: who you are, your organisations, teams, pending invitations and the known versions. */
@Path("v1/me")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Inject
    AccountService accounts;

    @GET
    public JsonObject me(@Context SecurityContext security, @Context HttpServletRequest request) {
        return accounts.me(AuthFilter.caller(security), VersionFilter.used(request));
    }
}
