package org.switchboard.synapse.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonValue;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** §7.2: the authority gates in order, then every request check of enrol and revoke in order. */
class EnrollmentGatesTest {

    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    static final class Authority implements EnrollmentGates.Authority {
        boolean enabled = true, proven = true, acl = true, role = true, namespace = true, rate = true;
        String askedRole;
        String askedProject;

        @Override public boolean enabled() { return enabled; }
        @Override public boolean proven(String r) { return proven; }
        @Override public boolean aclAllows(String r, String n) { return acl; }
        @Override public boolean hasRole(String r, String role) { askedRole = role; return this.role; }
        @Override public boolean namespaceAllowed(String p) { askedProject = p; return namespace; }
        @Override public boolean rateAllows(String r) { return rate; }
    }

    static final class Stores implements EnrollmentGates.Stores {
        boolean used, covered;
        String live;
        boolean enrolled = true;

        @Override public boolean keyIdUsed(String k) { return used; }
        @Override public boolean coveredByOperator(String n) { return covered; }
        @Override public String liveEnrolledKey(String n) { return live; }
        @Override public boolean enrolledKeyOf(String n, String k) { return enrolled; }
    }

    static EnrollmentGates.Request enrol(String name, String keyId, String key, String reason, String expected, JsonValue expires) {
        return new EnrollmentGates.Request(name, keyId, key, reason, expected, expires);
    }

    static final EnrollmentGates.Request GOOD = enrol("ACME/bob", "bob-1", KEY, "new laptop", null, null);

    @Test
    void authorityGatesFailInOrder() {
        Authority a = new Authority();
        assertNull(EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        assertEquals("OPS/identity-enroller", a.askedRole, "the role is of the requester's project");
        assertEquals("ACME", a.askedProject, "the namespace is the target name's project");
        a.rate = false;
        assertEquals(EnrollmentGates.RATE, EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        a.namespace = false;
        assertEquals(EnrollmentGates.NAMESPACE, EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        a.role = false;
        assertEquals(EnrollmentGates.NO_ROLE + "OPS/identity-enroller", EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        a.acl = false;
        assertEquals(EnrollmentGates.NOT_AUTHORISED + "ACME/bob", EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        a.proven = false;
        assertEquals(EnrollmentGates.NOT_PROVEN, EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
        a.enabled = false;
        assertEquals(EnrollmentGates.DISABLED, EnrollmentGates.authority("OPS/admin", "ACME/bob", a));
    }

    static void problem(EnrollmentGates.Request r, Stores s, String start) {
        String p = EnrollmentGates.enrollProblem("OPS/admin", r, s, 1000);
        assertTrue(p != null && p.startsWith(start), start + " expected, got " + p);
    }

    @Test
    void enrolRequestChecksInOrder() {
        Stores s = new Stores();
        assertNull(EnrollmentGates.enrollProblem("OPS/admin", GOOD, s, 1000));
        problem(enrol("bob", "bob-1", KEY, "r", null, null), s, "name must be");
        problem(enrol("ACME/bob/x", "bob-1", KEY, "r", null, null), s, "name must be");
        problem(enrol("ACME/bob", "bob 1", KEY, "r", null, null), s, "key_id must match");
        problem(enrol("ACME/bob", "b".repeat(65), KEY, "r", null, null), s, "key_id must match");
        problem(enrol("ACME/bob", "bob-1", Base64.getEncoder().encodeToString(new byte[31]), "r", null, null), s, "public_key");
        problem(enrol("ACME/bob", "bob-1", "not base64!", "r", null, null), s, "public_key");
        problem(enrol("ACME/bob", "bob-1", KEY, "", null, null), s, "a non-empty operator reason");
        problem(enrol("ACME/bob", "bob-1", KEY, "x".repeat(501), null, null), s, "the operator reason is longer");
        problem(enrol("ACME/bob", "bob-1", KEY, "r", null, Jsons.PROVIDER.createValue(999)), s, "expires_at");
        problem(enrol("ACME/bob", "bob-1", KEY, "r", null, Jsons.PROVIDER.createValue("2030")), s, "expires_at");
        assertNull(EnrollmentGates.enrollProblem("OPS/admin", enrol("ACME/bob", "bob-1", KEY, "r", null,
                Jsons.PROVIDER.createValue(1001)), s, 1000));
        s.used = true;
        problem(GOOD, s, "key_id is already used");
        s.used = false;
        s.covered = true;
        problem(GOOD, s, "the name is covered by the operator trust bundle");
        s.covered = false;
        s.live = "bob-0";
        problem(GOOD, s, "the name already has a live enrolled key");
        problem(enrol("ACME/bob", "bob-1", KEY, "r", "bob-9", null), s, "the name already has a live enrolled key");
        assertNull(EnrollmentGates.enrollProblem("OPS/admin", enrol("ACME/bob", "bob-1", KEY, "r", "bob-0", null), s, 1000));
        s.live = null;
        problem(enrol("ACME/bob", "bob-1", KEY, "r", "bob-0", null), s, "rotation refused");
    }

    @Test
    void anEnrollerChangesItsOwnNameOnlyByRotatingItsCurrentKey() {
        Stores s = new Stores();
        String p = EnrollmentGates.enrollProblem("ACME/bob", GOOD, s, 1000);
        assertTrue(p.startsWith("an enroller may change its own name only"), p);
        s.live = "bob-0";
        assertNull(EnrollmentGates.enrollProblem("ACME/bob", enrol("ACME/bob", "bob-1", KEY, "r", "bob-0", null), s, 1000));
    }

    @Test
    void revokeChecksInOrder() {
        Stores s = new Stores();
        EnrollmentGates.Request good = enrol("ACME/bob", "bob-1", null, "left the team", null, null);
        assertNull(EnrollmentGates.revokeProblem(good, s));
        assertTrue(EnrollmentGates.revokeProblem(enrol("x", "bob-1", null, "r", null, null), s).startsWith("name must be"));
        assertTrue(EnrollmentGates.revokeProblem(enrol("ACME/bob", null, null, "r", null, null), s).startsWith("key_id is required"));
        assertTrue(EnrollmentGates.revokeProblem(enrol("ACME/bob", "bob-1", null, " ", null, null), s).startsWith("a non-empty"));
        s.enrolled = false;
        assertTrue(EnrollmentGates.revokeProblem(good, s).startsWith("the key is not an enrolled"));
    }
}
