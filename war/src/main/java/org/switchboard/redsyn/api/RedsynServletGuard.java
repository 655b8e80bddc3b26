package org.switchboard.redsyn.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.logging.LogSafe;

/**
 * The servlet-level backstop of {@code /redsyn}: an error the container would render as its HTML page
 * ({@code sendError}, or an exception that escaped the JAX-RS runtime) is written as the protocol's
 * error object instead.
 */
@WebFilter(urlPatterns = {"/redsyn", "/redsyn/*"}, asyncSupported = true)
public class RedsynServletGuard extends HttpFilter {

    private static final Logger LOG = Logger.getLogger(RedsynServletGuard.class.getName());

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try {
            chain.doFilter(request, new HttpServletResponseWrapper(response) {
                @Override
                public void sendError(int status) throws IOException {
                    writeError(response, status, reason(status));
                }

                @Override
                public void sendError(int status, String message) throws IOException {
                    writeError(response, status, reason(status));
                }
            });
        } catch (IOException | ServletException | RuntimeException e) {
            if (response.isCommitted()) {
                throw e;
            }
            Refusals.Refusal r = Refusals.of(e, request.getRequestURI());
            if (r.status() == 500) {
                LOG.log(Level.WARNING, "REDSYN internal error " + r.extra().get("ref") + " on " + LogSafe.text(request.getMethod()) + " "
                        + LogSafe.text(request.getRequestURI()) + ":", LogSafe.failure(e));
            }
            writeError(response, r.status(), r.message());
        }
    }

    private static String reason(int status) {
        jakarta.ws.rs.core.Response.Status known = jakarta.ws.rs.core.Response.Status.fromStatusCode(status);
        return known == null ? "request refused" : known.getReasonPhrase();
    }

    private static void writeError(HttpServletResponse response, int status, String message) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] body = org.switchboard.json.Jsons.PROVIDER.createObjectBuilder().add("error", message).add("status", status)
                .build().toString().getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
