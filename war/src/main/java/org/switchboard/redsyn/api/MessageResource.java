package org.switchboard.redsyn.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.message.MessageSender;
import org.switchboard.redsyn.message.MessageService;
import org.switchboard.redsyn.message.SendResult;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * Sending, file download and cancellation. One instance serves every request (request state comes
 * in as method parameters): creating and injecting a request-scoped resource per call was a tenth
 * of a send's CPU.
 */
@SecurityRequirement(name = "node-token")
@Path("v1/messages")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class MessageResource {

    @Inject
    MessageService messages;

    @Inject
    MessageSender sender;

    @Operation(summary = "send an envelope")
    @APIResponse(responseCode = "201", description = "accepted", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Sent.class)))
    @APIResponse(responseCode = "200", description = "a duplicate id: the first message", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Sent.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.SendEnvelope.class)))
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response send(@Context SecurityContext security, JsonObject envelope) {
        if (envelope == null) {
            throw RedsynException.unprocessable("the envelope is required");
        }
        SendResult result = sender.send(AuthFilter.caller(security), envelope);
        return Response.status(result.status()).entity(result.body()).build();
    }

    @Operation(summary = "download a message's zip")
    @APIResponse(responseCode = "200", description = "the zip", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Files.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("{id}/files")
    public JsonObject files(@Context SecurityContext security, @PathParam("id") String id) {
        return messages.files(AuthFilter.caller(security), id);
    }

    @Operation(summary = "withdraw a request nobody took yet")
    @APIResponse(responseCode = "200", description = "cancelled", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Cancelled.class)))
    @APIResponse(responseCode = "default", description = "a refusal", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{id}/cancel")
    public JsonObject cancel(@Context SecurityContext security, @PathParam("id") String id) {
        return messages.cancel(AuthFilter.caller(security), id);
    }
}
