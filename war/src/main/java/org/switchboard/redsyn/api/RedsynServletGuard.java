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
        String refusal = headerRefusal(request);
        if (refusal != null) {
            // Jersey answers these with an empty 400 before any mapper runs; the body, if any, is not read.
            response.setHeader("Connection", "close");
            writeError(response, 400, refusal);
            return;
        }
        if ("OPTIONS".equals(request.getMethod())) {
            answerOptions(request, response, chain);
            return;
        }
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

    /**
     * {@code OPTIONS} always ends in a 405 ({@link ErrorShape} names the allowed methods), but on some
     * resources the runtime sends it without a body; the answer is held (it is a few bytes) and given
     * the error object when it comes back empty.
     */
    private static void answerOptions(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        java.io.ByteArrayOutputStream held = new java.io.ByteArrayOutputStream();
        jakarta.servlet.ServletOutputStream sink = new jakarta.servlet.ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(jakarta.servlet.WriteListener listener) {
                throw new IllegalStateException("an OPTIONS answer is written synchronously");
            }

            @Override
            public void write(int b) {
                held.write(b);
            }
        };
        HttpServletResponseWrapper holding = new HttpServletResponseWrapper(response) {
            @Override
            public jakarta.servlet.ServletOutputStream getOutputStream() {
                return sink;
            }

            @Override
            public java.io.PrintWriter getWriter() {
                return new java.io.PrintWriter(new java.io.OutputStreamWriter(sink, StandardCharsets.UTF_8), true);
            }

            @Override
            public void flushBuffer() {
                // held until the chain returns
            }

            @Override
            public void sendError(int status) throws IOException {
                setStatus(status);
            }

            @Override
            public void sendError(int status, String message) throws IOException {
                setStatus(status);
            }
        };
        try {
            chain.doFilter(request, holding);
        } catch (IOException | ServletException | RuntimeException e) {
            held.reset();
            response.setStatus(405);
        }
        int status = response.getStatus() < 400 ? 405 : response.getStatus();
        if (held.size() == 0) {
            writeError(response, status, reason(status));
        } else {
            response.setContentLength(held.size());
            held.writeTo(response.getOutputStream());
            response.flushBuffer();
        }
    }

    /** Why a request's framing or headers are refused before it reaches a resource, or null. */
    static String headerRefusal(HttpServletRequest request) {
        String method = request.getMethod();
        boolean bodiless = "GET".equals(method) || "HEAD".equals(method) || "DELETE".equals(method) || "OPTIONS".equals(method);
        if (bodiless && (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null)) {
            return method + " takes no request body";
        }
        String contentType = request.getHeader("Content-Type");
        if (contentType != null) {
            try {
                jakarta.ws.rs.core.MediaType.valueOf(contentType);
            } catch (IllegalArgumentException e) {
                return "Content-Type is not a media type";
            }
        }
        return null;
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
