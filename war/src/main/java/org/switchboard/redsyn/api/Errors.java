package org.switchboard.redsyn.api;

import org.switchboard.json.Jsons;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
import java.util.Map;

/** Builds the one error shape of REDSYN: {@code {"error": "...", "status": N}}. */
public final class Errors {

    private Errors() {
    }

    /** An error response with optional extra members. */
    public static Response response(int status, String message, Map<String, Object> extra) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("error", message).add("status", status);
        extra.forEach((k, v) -> {
            if (v instanceof Boolean bool) {
                b.add(k, bool);
            } else if (v instanceof Number n) {
                b.add(k, n.longValue());
            } else if (v instanceof Collection<?> c) {
                JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
                c.forEach(item -> a.add(String.valueOf(item)));
                b.add(k, a);
            } else {
                b.add(k, String.valueOf(v));
            }
        });
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(b.build()).build();
    }

    /** An error response. */
    public static Response response(int status, String message) {
        return response(status, message, Map.of());
    }
}
