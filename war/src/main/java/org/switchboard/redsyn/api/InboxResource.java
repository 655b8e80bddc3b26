package org.switchboard.redsyn.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.inbox.GroupedAcks;
import org.switchboard.redsyn.inbox.InboxPolling;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * An agent's inbox: take (long polling on a suspended response), peek, ack. One instance serves
 * every request; path and security come in as method parameters (see {@link MessageResource}).
 */
@SecurityRequirement(name = "node-token")
@Path("v1/inbox/{org}/{team}/{user}/{agent}")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class InboxResource {

    @Inject
    InboxPolling polling;

    @Inject
    GroupedAcks acks;

    @Operation(summary = "take what waits (long polling with wait=), or list it with peek=1")
    @APIResponse(responseCode = "200", description = "the envelopes taken (or waiting)", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Items.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public void take(@Context SecurityContext security, @PathParam("org") String org, @PathParam("team") String team,
                     @PathParam("user") String user, @PathParam("agent") String agent, @Suspended AsyncResponse response,
                     @QueryParam("wait") String wait, @QueryParam("lease") String lease,
                     @QueryParam("reply_to") String replyTo, @QueryParam("peek") String peek, @Context HttpServletRequest request) {
        polling.poll(AuthFilter.caller(security), new Address(org, team, user, agent, null), Flags.seconds("wait", wait), Flags.seconds("lease", lease),
                replyTo == null || replyTo.isBlank() ? null : replyTo, Flags.on(peek), response, request);
    }

    @Operation(summary = "confirm what you took")
    @APIResponse(responseCode = "200", description = "the outcome per id", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Acked.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("ack")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject ack(@Context SecurityContext security, @PathParam("org") String org, @PathParam("team") String team,
                          @PathParam("user") String user, @PathParam("agent") String agent, @Valid @NotNull Requests.Ack body) {
        return acks.ack(AuthFilter.caller(security), new Address(org, team, user, agent, null), body.ids);
    }
}
