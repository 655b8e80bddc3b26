package org.switchboard.redsyn.api;

import jakarta.enterprise.context.RequestScoped;
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

/** Sending, file download and cancellation. */
@Path("v1/messages")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class MessageResource {

    @Inject
    MessageService messages;

    @Context
    SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response send(JsonObject envelope) {
        if (envelope == null) {
            throw RedsynException.unprocessable("the envelope is required");
        }
        SendResult result = messages.send(AuthFilter.caller(security), envelope);
        return Response.status(result.status()).entity(result.body()).build();
    }

    @GET
    @Path("{id}/files")
    public JsonObject files(@PathParam("id") String id) {
        return messages.files(AuthFilter.caller(security), id);
    }

    @POST
    @Path("{id}/cancel")
    public JsonObject cancel(@PathParam("id") String id) {
        return messages.cancel(AuthFilter.caller(security), id);
    }
}
