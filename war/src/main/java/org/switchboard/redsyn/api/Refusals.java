package org.switchboard.redsyn.api;

import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.bind.JsonbException;
import jakarta.json.stream.JsonParsingException;
import jakarta.persistence.EntityExistsException;
import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PessimisticLockException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionRolledbackException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.AddressException;

/**
 * What a failure means to the client: status, message and extra members of the REDSYN error object,
 * read off the whole cause chain (runtimes wrap: a refusal thrown while the body streams in arrives
 * inside the parser's or the binder's exception). Messages never carry Java class names; anything
 * unexpected is a 500 with a reference to the server log line.
 */
final class Refusals {

    /** A refusal: {@code allow} is the Allow header of a 405 (else null). */
    record Refusal(int status, String message, Map<String, Object> extra, String allow) {

        static Refusal of(int status, String message) {
            return new Refusal(status, message, Map.of(), null);
        }
    }

    /** Dotted names such as {@code org.example.Type$Inner} or {@code java.lang.String}: class names, not for clients. */
    private static final Pattern QUALIFIED_NAME = Pattern.compile("(?:class |interface )?\\b[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*){2,}");
    private static final int MAX_MESSAGE = 300;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Refusals() {
    }

    /** The refusal for {@code e}, a failure of a request to {@code path}. */
    static Refusal of(Throwable e, String path) {
        List<Throwable> chain = chain(e);
        RedsynException redsyn = find(chain, RedsynException.class);
        if (redsyn != null) {
            return new Refusal(redsyn.status(), redsyn.getMessage(), redsyn.extra(), null);
        }
        AddressException address = find(chain, AddressException.class);
        if (address != null) {
            return Refusal.of(422, address.getMessage());
        }
        ConstraintViolationException violations = find(chain, ConstraintViolationException.class);
        if (violations != null) {
            return Refusal.of(422, violations(violations));
        }
        WebApplicationException web = find(chain, WebApplicationException.class);
        if (web != null) {
            return web(web, path);
        }
        JsonParsingException parsing = find(chain, JsonParsingException.class);
        if (parsing != null) {
            return Refusal.of(400, "invalid JSON: " + clean(parsing.getMessage()));
        }
        if (find(chain, JsonbException.class) != null) {
            return Refusal.of(400, "the JSON body does not have the members and types this call takes");
        }
        JsonException json = find(chain, JsonException.class);
        if (json != null) {
            return Refusal.of(400, "invalid JSON: " + clean(json.getMessage()));
        }
        if (chain.stream().anyMatch(Refusals::isConflict)) {
            return Refusal.of(409, "conflicting concurrent change; retry with the same id");
        }
        ProcessingException processing = find(chain, ProcessingException.class);
        Throwable root = chain.get(chain.size() - 1);
        if (processing != null && (root == processing || root instanceof IOException || root instanceof IllegalArgumentException)) {
            // the body could not be read (the client went away mid-body) or does not fit the call's parameter
            return Refusal.of(400, "the request body could not be read as this call's JSON");
        }
        String ref = HexFormat.of().formatHex(bytes());
        return new Refusal(500, "internal error; reference " + ref, Map.of("ref", ref), null);
    }

    private static byte[] bytes() {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        return b;
    }

    private static Refusal web(WebApplicationException e, String path) {
        Response response = e.getResponse();
        int status = response.getStatus();
        if (response.hasEntity() && response.getEntity() instanceof JsonObject o && o.get("error") instanceof JsonString s) {
            return Refusal.of(status, s.getString());
        }
        if (e instanceof NotFoundException) {
            return Refusal.of(404, "no such resource: " + path);
        }
        if (e instanceof NotAllowedException) {
            String allow = allowed(response.getAllowedMethods());
            return new Refusal(405, "method not allowed here; allowed: " + allow, Map.of(), allow);
        }
        if (e instanceof NotSupportedException) {
            return Refusal.of(415, "send JSON with Content-Type: application/json");
        }
        if (e instanceof NotAcceptableException) {
            return Refusal.of(406, "this API answers application/json");
        }
        if (status == 400) {
            return Refusal.of(400, "bad request" + (e.getCause() != null && e.getCause().getMessage() != null
                    ? ": " + clean(e.getCause().getMessage()) : ""));
        }
        String reason = response.getStatusInfo().getReasonPhrase();
        return Refusal.of(status, reason == null || reason.isBlank() ? "request refused" : reason);
    }

    /** The methods of an Allow header but OPTIONS, which REDSYN refuses like any other unknown method. */
    static String allowed(Set<String> methods) {
        Set<String> sorted = new TreeSet<>(methods);
        sorted.remove("OPTIONS");
        return String.join(", ", sorted);
    }

    private static String violations(ConstraintViolationException e) {
        String message = e.getConstraintViolations().stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> field(v) + " " + v.getMessage())
                .collect(Collectors.joining("; "));
        return message.isEmpty() ? "invalid request" : message;
    }

    private static String field(ConstraintViolation<?> v) {
        String name = "body";
        for (Path.Node node : v.getPropertyPath()) {
            if (node.getKind() == ElementKind.PROPERTY || node.getKind() == ElementKind.CONTAINER_ELEMENT) {
                name = node.getName() == null ? name : node.getName();
            }
        }
        return name;
    }

    private static boolean isConflict(Throwable t) {
        if (t instanceof SQLException sql && sql.getSQLState() != null) {
            String state = sql.getSQLState();
            // 23: integrity constraint (a concurrent insert of the same key); 40: serialization failure or
            // deadlock; HYT00: lock timeout (H2)
            return state.startsWith("23") || state.startsWith("40") || state.equals("HYT00");
        }
        return t instanceof OptimisticLockException || t instanceof PessimisticLockException || t instanceof LockTimeoutException
                || t instanceof EntityExistsException || t instanceof RollbackException
                || t instanceof TransactionRolledbackException || t instanceof EJBTransactionRolledbackException;
    }

    /** A library's message for a client: no class names, bounded. */
    static String clean(String message) {
        if (message == null || message.isBlank()) {
            return "unreadable";
        }
        String cleaned = QUALIFIED_NAME.matcher(message).replaceAll("a value");
        return cleaned.length() > MAX_MESSAGE ? cleaned.substring(0, MAX_MESSAGE) + "..." : cleaned;
    }

    private static List<Throwable> chain(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = e; t != null && chain.size() < 16 && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static <T extends Throwable> T find(List<Throwable> chain, Class<T> type) {
        for (Throwable t : chain) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
