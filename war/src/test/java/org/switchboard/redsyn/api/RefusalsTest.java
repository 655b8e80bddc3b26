package org.switchboard.redsyn.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.json.bind.JsonbException;
import jakarta.json.stream.JsonParsingException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.RollbackException;
import jakarta.ws.rs.ProcessingException;
import java.io.IOException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.AddressException;

class RefusalsTest {

    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:java|javax|jakarta|org|com|sun|fish)\\.[a-z0-9_]+\\.");

    private static Refusals.Refusal of(Throwable e) {
        Refusals.Refusal r = Refusals.of(e, "/v1/x");
        assertFalse(CLASS_NAME.matcher(r.message()).find(), r.message());
        return r;
    }

    @Test
    void aTypedRefusalIsFoundThroughAnyWrapping() {
        RedsynException tooLarge = new RedsynException(413, "request body larger than 256 KB");
        Refusals.Refusal r = of(new JsonbException("Internal error: " + tooLarge.getMessage(), new RuntimeException(tooLarge)));
        assertEquals(413, r.status());
        assertEquals("request body larger than 256 KB", r.message());
        Refusals.Refusal quota = of(new ProcessingException(new RedsynException(403, "over quota", Map.of("quota", true))));
        assertEquals(403, quota.status());
        assertEquals(true, quota.extra().get("quota"));
    }

    @Test
    void optionsIsNeverListedAsAllowed() {
        // (JAX-RS errors themselves need the runtime: RedsynRefusalsIT covers 404, 405 and 415)
        assertEquals("GET, POST", Refusals.allowed(Set.of("POST", "OPTIONS", "GET")));
        assertEquals("", Refusals.allowed(Set.of("OPTIONS")));
    }

    @Test
    void unreadableJsonIs400WithoutClassNames() {
        Refusals.Refusal binding = of(new JsonbException("Incorrect position for processing type: class org.switchboard.redsyn.api.Requests$NewOrg."
                + " Received event: START_ARRAY"));
        assertEquals(400, binding.status());
        Refusals.Refusal parsing = of(new JsonbException("Internal error", new JsonParsingException(
                "Unexpected char 120 at (line no=1, column no=9) in java.lang.String and org.eclipse.parsson.JsonTokenizer", null)));
        assertEquals(400, parsing.status());
        assertTrue(parsing.message().startsWith("invalid JSON: Unexpected char 120"), parsing.message());
        assertEquals(422, of(new AddressException("'x y' is not an address")).status());
    }

    @Test
    void concurrentChangesAndRollbacksAre409() {
        assertEquals(409, of(new PersistenceException(new SQLIntegrityConstraintViolationException("dup", "23505"))).status());
        assertEquals(409, of(new OptimisticLockException("stale")).status());
        assertEquals(409, of(new EJBTransactionRolledbackException("rolled back")).status());
        assertEquals(409, of(new IllegalStateException(new RollbackException("rolled back"))).status());
    }

    @Test
    void aBodyThatCannotBeReadIs400() {
        assertEquals(400, of(new ProcessingException("Error reading entity", new IOException("closed"))).status());
        assertEquals(400, of(new ProcessingException("Resource Java method invocation error.", new IllegalArgumentException("argument type mismatch"))).status());
    }

    @Test
    void anythingElseIsA500WithAReferenceAndNoDetail() {
        Refusals.Refusal r = of(new NullPointerException("Cannot invoke \"org.switchboard.redsyn.X.y()\" because z is null"));
        assertEquals(500, r.status());
        String ref = (String) r.extra().get("ref");
        assertTrue(ref.matches("[0-9a-f]{12}"), ref);
        assertEquals("internal error; reference " + ref, r.message());
        assertEquals(500, of(new ProcessingException("writer failed", new IllegalStateException("bug"))).status());
        assertTrue(!ref.equals(of(new IllegalStateException()).extra().get("ref")), "each internal error has its own reference");
    }

    @Test
    void libraryMessagesLoseTheirClassNames() {
        assertEquals("cannot bind a value to a value", Refusals.clean("cannot bind class java.lang.String to org.acme.Type$Inner"));
        assertEquals("unreadable", Refusals.clean(null));
        assertTrue(Refusals.clean("x".repeat(1_000)).length() < 400);
    }
}
