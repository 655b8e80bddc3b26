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
import org.switchboard.redsyn.message.MessageService;
import org.switchboard.redsyn.message.SendResult;

/**
 * Sending, file download and cancellation. One instance serves every request (request state comes
 * in as method parameters): creating and injecting a request-scoped resource per call was a tenth
 * of a send's CPU.
 */
@Path("v1/messages")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class MessageResource {

    @Inject
    MessageService messages;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response send(@Context SecurityContext security, JsonObject envelope) {
        if (envelope == null) {
            throw RedsynException.unprocessable("the envelope is required");
        }
        SendResult result = messages.send(AuthFilter.caller(security), envelope);
        return Response.status(result.status()).entity(result.body()).build();
    }

    @GET
    @Path("{id}/files")
    public JsonObject files(@Context SecurityContext security, @PathParam("id") String id) {
        return messages.files(AuthFilter.caller(security), id);
    }

    @POST
    @Path("{id}/cancel")
    public JsonObject cancel(@Context SecurityContext security, @PathParam("id") String id) {
        return messages.cancel(AuthFilter.caller(security), id);
    }
}
