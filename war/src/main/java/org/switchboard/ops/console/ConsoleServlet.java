package org.switchboard.ops.console;

import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.switchboard.json.Jsons;
import org.switchboard.ops.operator.OperatorRefusal;
import org.switchboard.ops.operator.OperatorService;

/**
 * The operator console at {@code /console/}: the static page ({@code webapp/console/}) and its JSON
 * API under {@code /console/api/*}, each call one operator service. Every {@code /console/**} path
 * answers 404 unless {@code switchboard.operator-token} is set; the API needs a session from the
 * login (the token typed in), and mutating calls also its CSRF token in {@code X-CSRF-Token}.
 */
@WebServlet(urlPatterns = "/console/*")
public class ConsoleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final int MAX_BODY = 16 * 1024;
    private static final Map<String, String> STATIC = Map.of("/", "index.html", "/index.html", "index.html",
            "/console.js", "console.js", "/console.css", "console.css");

    @Inject
    transient OperatorService operator;

    @Inject
    @ConfigProperty(name = "switchboard.operator-token")
    transient Optional<String> token;

    @Inject
    @ConfigProperty(name = "switchboard.console.session-idle-minutes", defaultValue = "30")
    transient long idleMinutes;

    private transient volatile ConsoleSessions sessions;

    private ConsoleSessions sessions() {
        ConsoleSessions current = sessions;
        if (current == null) {
            synchronized (this) {
                if (sessions == null) {
                    sessions = new ConsoleSessions(token.orElse(null), idleMinutes * 60_000, System::currentTimeMillis);
                }
                current = sessions;
            }
        }
        return current;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
        if (!sessions().enabled()) {
            text(response, 404, "not found\n");
            return;
        }
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        try {
            if (path.startsWith("/api/")) {
                api(request, response, path.substring("/api".length()));
            } else if ("GET".equals(request.getMethod())) {
                page(request, response, path);
            } else {
                text(response, 405, "method not allowed\n");
            }
        } catch (OperatorRefusal e) {
            json(response, e.status(), ConsoleJson.error(e.status(), e.getMessage()));
        } catch (RuntimeException e) {
            log("console request failed", e);
            json(response, 500, ConsoleJson.error(500, "internal error: " + e.getClass().getSimpleName()));
        }
    }

    private void page(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        if (path.isEmpty()) {
            response.sendRedirect(request.getContextPath() + "/console/");
            return;
        }
        String file = STATIC.get(path);
        InputStream in = file == null ? null : getServletContext().getResourceAsStream("/console/" + file);
        if (in == null) {
            text(response, 404, "not found\n");
            return;
        }
        try (in) {
            byte[] body = in.readAllBytes();
            response.setStatus(200);
            response.setContentType(file.endsWith(".js") ? "text/javascript; charset=utf-8"
                    : file.endsWith(".css") ? "text/css; charset=utf-8" : "text/html; charset=utf-8");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    private void api(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        boolean post = "POST".equals(request.getMethod());
        if (!post && !"GET".equals(request.getMethod())) {
            json(response, 405, ConsoleJson.error(405, "method not allowed"));
            return;
        }
        if (post && "/login".equals(path)) {
            login(request, response);
            return;
        }
        ConsoleSessions.Session session = sessions().find(cookie(request));
        if (session == null) {
            json(response, 401, ConsoleJson.error(401, "log in first"));
            return;
        }
        if (!post) {
            json(response, 200, read(path, session));
            return;
        }
        if (!ConsoleSessions.csrfValid(session, request.getHeader("X-CSRF-Token"))) {
            json(response, 403, ConsoleJson.error(403, "missing or wrong CSRF token"));
            return;
        }
        JsonObject body = body(request);
        String who = session.principal();
        JsonObject done = switch (path) {
            case "/logout" -> {
                sessions().logout(session.id());
                response.addHeader("Set-Cookie", ConsoleSessions.clearedCookie(request.isSecure()));
                yield ok("logged out");
            }
            case "/claims/release" -> {
                var claim = operator.forceRelease(string(body, "task_id"), string(body, "reason"), who);
                yield ok("released " + claim.taskId() + " (was " + claim.owner() + ")");
            }
            case "/roster/disconnect" -> ok("closed " + operator.disconnect(string(body, "connection"), string(body, "reason"), who));
            case "/webhooks/retry" -> {
                operator.retryWebhook(number(body, "message_seq"), who);
                yield ok("retry queued");
            }
            case "/webhooks/drop" -> {
                operator.dropWebhook(number(body, "message_seq"), string(body, "reason"), who);
                yield ok("dropped");
            }
            case "/journal/backup" -> ok("backup written to " + operator.backup(who));
            default -> throw OperatorRefusal.notFound("no such console action");
        };
        json(response, 200, done);
    }

    private JsonObject read(String path, ConsoleSessions.Session session) {
        return switch (path) {
            case "/session" -> Jsons.PROVIDER.createObjectBuilder().add("csrf", session.csrf()).add("principal", session.principal()).build();
            case "/counters" -> ConsoleJson.counts(operator.counters());
            case "/roster" -> ConsoleJson.roster(operator.roster());
            case "/claims" -> ConsoleJson.claims(operator.claims());
            case "/board" -> operator.board();
            case "/mailbox" -> ConsoleJson.counts(operator.mailboxBacklog());
            case "/inbox" -> ConsoleJson.inbox(operator.inboxDepths());
            case "/webhooks" -> ConsoleJson.webhooks(operator.webhookQueue());
            case "/journal" -> ConsoleJson.journal(operator.journalStats());
            case "/plans" -> ConsoleJson.plans(operator.planUsage());
            case "/delivery" -> ConsoleJson.delivery(operator.deliveryQueue());
            case "/forwards" -> ConsoleJson.forwards(operator.forwardQueue());
            default -> throw OperatorRefusal.notFound("no such console view");
        };
    }

    private void login(HttpServletRequest request, HttpServletResponse response) throws IOException {
        JsonObject body = body(request);
        String presented = body.get("token") instanceof JsonString s ? s.getString() : null;
        ConsoleSessions.Session session = sessions().login(presented);
        if (session == null) {
            log("console: refused a login from " + request.getRemoteAddr()); // the attempt, never what was typed
            json(response, 401, ConsoleJson.error(401, "wrong operator token"));
            return;
        }
        log("console: " + session.principal() + " logged in from " + request.getRemoteAddr());
        response.addHeader("Set-Cookie", ConsoleSessions.cookie(session, request.isSecure()));
        json(response, 200, Jsons.PROVIDER.createObjectBuilder().add("csrf", session.csrf()).add("principal", session.principal()).build());
    }

    private static String cookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (ConsoleSessions.COOKIE.equals(c.getName())) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    private static JsonObject body(HttpServletRequest request) throws IOException {
        byte[] bytes = request.getInputStream().readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw OperatorRefusal.badRequest("request body over " + MAX_BODY + " bytes");
        }
        if (bytes.length == 0) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(new String(bytes, StandardCharsets.UTF_8)))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw OperatorRefusal.badRequest("the body must be a JSON object");
        }
    }

    private static String string(JsonObject body, String key) {
        return body.get(key) instanceof JsonString s ? s.getString() : null;
    }

    private static long number(JsonObject body, String key) {
        if (body.get(key) instanceof JsonNumber n && n.isIntegral()) {
            return n.longValue();
        }
        throw OperatorRefusal.badRequest("'" + key + "' must be an integer");
    }

    private static JsonObject ok(String message) {
        return Jsons.PROVIDER.createObjectBuilder().add("ok", true).add("message", message).build();
    }

    private static void json(HttpServletResponse response, int status, JsonObject body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private static void text(HttpServletResponse response, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
