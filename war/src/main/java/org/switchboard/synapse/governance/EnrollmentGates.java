package org.switchboard.synapse.governance;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The gates of {@code identity_enroll} / {@code identity_revoke} (synapse-advanced §7.2), first
 * failure wins. {@link #authority} runs the authority gates (feature, proven requester, ACL
 * {@code identity-enroll}, role {@code <project>/identity-enroller}, namespace allow-list, rate);
 * a requester who passes them all is an authorised operator, whose later request-check refusals
 * {@link #enrollProblem} / {@link #revokeProblem} are journalled as {@code denied}.
 */
public final class EnrollmentGates {

    /** Longest reason accepted, in characters. */
    public static final int MAX_REASON = 500;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}/[A-Za-z0-9._-]{1,64}");

    static final String DISABLED = "identity enrolment is not enabled on this hub (it needs hub.identity-enrollments,"
            + " an operator trust bundle and a durable journal)";
    static final String NOT_PROVEN = PinReclaimGates.NOT_PROVEN;
    static final String NOT_AUTHORISED = "not authorised: ACL permission identity-enroll on agent:";
    static final String NO_ROLE = "not authorised: the requester lacks the role ";
    static final String NAMESPACE = "the name's project is not in the hub's enrolment namespace allow-list";
    static final String RATE = "enrolment rate exceeded for this requester; try again later";

    /** What the authority gates need to know. */
    public interface Authority {
        /** Enrolment configured: overlay file, operator bundle and durable journal. */
        boolean enabled();

        /** §6.5 "proven" requester. */
        boolean proven(String requester);

        /** The always-enforced ACL grant {@code identity-enroll} on {@code agent:<name>}. */
        boolean aclAllows(String requester, String name);

        /** The role grant {@code role} for {@code requester}. */
        boolean hasRole(String requester, String role);

        /** True when {@code project} is in {@code hub.identity-enroll-namespaces}. */
        boolean namespaceAllowed(String project);

        /** True when the requester may apply another change within the rate window. */
        boolean rateAllows(String requester);
    }

    /** The request fields of either verb; a field of the wrong type reads as absent. */
    public record Request(String name, String keyId, String publicKey, String reason, String expectedKeyId,
                          JsonValue expiresAt) {

        /** Reads a frame. */
        public static Request of(JsonObject frame) {
            return new Request(PinReclaimGates.text(frame, "name"), PinReclaimGates.text(frame, "key_id"),
                    PinReclaimGates.text(frame, "public_key"), PinReclaimGates.text(frame, "reason"),
                    PinReclaimGates.text(frame, "expected_key_id"), frame.get("expires_at"));
        }

        /** {@code rotate} when the request names a current key, else {@code enroll}. */
        public String enrollAction() {
            return expectedKeyId == null ? "enroll" : "rotate";
        }
    }

    /** What the request checks need to know about the stores. */
    public interface Stores {
        /** True when {@code keyId} is in the operator bundle or the overlay (revoked keys included). */
        boolean keyIdUsed(String keyId);

        /** True when the operator bundle lists {@code name} (it stays authoritative). */
        boolean coveredByOperator(String name);

        /** The live enrolled key id of {@code name}, or null. */
        String liveEnrolledKey(String name);

        /** True when {@code keyId} is an enrolled, non-revoked key of {@code name}. */
        boolean enrolledKeyOf(String name, String keyId);
    }

    private EnrollmentGates() {
    }

    /** Null when the requester passes every authority gate for {@code name}; else the refusal. */
    public static String authority(String requester, String name, Authority a) {
        if (!a.enabled()) {
            return DISABLED;
        }
        if (!a.proven(requester)) {
            return NOT_PROVEN;
        }
        String target = name == null ? "" : name;
        if (!a.aclAllows(requester, target)) {
            return NOT_AUTHORISED + target;
        }
        String role = project(requester) + "/identity-enroller";
        if (!a.hasRole(requester, role)) {
            return NO_ROLE + role;
        }
        if (!a.namespaceAllowed(project(target))) {
            return NAMESPACE;
        }
        if (!a.rateAllows(requester)) {
            return RATE;
        }
        return null;
    }

    /** The request checks of {@code identity_enroll}, in order; null when the change may be applied. */
    public static String enrollProblem(String requester, Request r, Stores s, double now) {
        if (!nameShape(r.name())) {
            return "name must be <project>/<id> of [A-Za-z0-9._-], each at most 64 characters";
        }
        if (r.keyId() == null || !EnrollmentOverlay.KEY_ID.matcher(r.keyId()).matches()) {
            return "key_id must match [A-Za-z0-9._-]{1,64}";
        }
        if (publicKey(r.publicKey()) == null) {
            return "public_key must be base64 of 32 raw Ed25519 bytes";
        }
        String reason = reasonProblem(r.reason());
        if (reason != null) {
            return reason;
        }
        if (r.expiresAt() != null && r.expiresAt().getValueType() != JsonValue.ValueType.NULL
                && !(r.expiresAt() instanceof JsonNumber n && Double.isFinite(n.doubleValue()) && n.doubleValue() > now)) {
            return "expires_at must be a future time in epoch seconds";
        }
        if (s.keyIdUsed(r.keyId())) {
            return "key_id is already used in the trust bundle or the enrolment store";
        }
        if (s.coveredByOperator(r.name())) {
            return "the name is covered by the operator trust bundle, which stays authoritative";
        }
        String current = s.liveEnrolledKey(r.name());
        if (r.name().equals(requester) && (r.expectedKeyId() == null || current == null)) {
            return "an enroller may change its own name only by a rotation naming its current key";
        }
        if (current != null && !current.equals(r.expectedKeyId())) {
            return "the name already has a live enrolled key: a rotation must name it in expected_key_id";
        }
        if (current == null && r.expectedKeyId() != null) {
            return "rotation refused: the name has no current enrolled key";
        }
        return null;
    }

    /** The request checks of {@code identity_revoke}, in order; null when the key may be revoked. */
    public static String revokeProblem(Request r, Stores s) {
        if (!nameShape(r.name())) {
            return "name must be <project>/<id> of [A-Za-z0-9._-], each at most 64 characters";
        }
        if (r.keyId() == null || r.keyId().isEmpty()) {
            return "key_id is required";
        }
        String reason = reasonProblem(r.reason());
        if (reason != null) {
            return reason;
        }
        if (!s.enrolledKeyOf(r.name(), r.keyId())) {
            return "the key is not an enrolled, non-revoked key of that name";
        }
        return null;
    }

    private static String reasonProblem(String reason) {
        if (reason == null || reason.isBlank()) {
            return "a non-empty operator reason is required";
        }
        return reason.length() > MAX_REASON ? "the operator reason is longer than " + MAX_REASON + " characters" : null;
    }

    /** True for a {@code <project>/<id>} name this hub enrols. */
    static boolean nameShape(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The 32 raw bytes of a standard-base64 Ed25519 public key, or null. */
    static byte[] publicKey(String text) {
        if (text == null || text.length() > 64) {
            return null;
        }
        try {
            byte[] raw = Base64.getDecoder().decode(text);
            return raw.length == 32 ? raw : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The project of a name: the part before its first {@code /} ("" when none), as in the ACL. */
    static String project(String name) {
        int slash = name == null ? -1 : name.indexOf('/');
        return slash < 0 ? "" : name.substring(0, slash);
    }
}
