package org.switchboard.synapse.federation.policy;

import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * The source hub's recipient policy for peer attachment reads ({@code hub.attachment-recipient-policy},
 * synapse-advanced §5.1): exact (recipient hub, project scope, digest) grants with an expiry. Read and
 * parsed afresh for every request, so a revocation takes effect on the next one.
 */
public final class RecipientPolicy {

    /** The configuration key named in every refusal. */
    public static final String KEY = "hub.attachment-recipient-policy";
    /** Most grants one file may hold. */
    public static final int MAX_GRANTS = 256;

    private static final Set<String> ROOT_KEYS = Set.of("version", "grants");
    private static final Set<String> GRANT_KEYS = Set.of("recipient_hub", "scope", "digest", "expires_at");

    /** One grant: {@code recipientHub} may read object {@code digest} of project {@code scope} until {@code expiresAt}. */
    public record Grant(String recipientHub, String scope, String digest, double expiresAt) {
    }

    private final List<Grant> grants;

    private RecipientPolicy(List<Grant> grants) {
        this.grants = List.copyOf(grants);
    }

    /** Loads and validates the file; any fault is a {@link PolicyFileException} naming {@link #KEY}. */
    public static RecipientPolicy load(Path path) {
        return parse(StrictPolicyJson.read(KEY, path));
    }

    /** Validates an already-read document. */
    public static RecipientPolicy parse(JsonObject root) {
        List<JsonObject> grantObjects = PolicyChecks.grantObjects(KEY, root, ROOT_KEYS, GRANT_KEYS, MAX_GRANTS);
        List<Grant> grants = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < grantObjects.size(); i++) {
            String where = "grant " + i;
            JsonObject g = grantObjects.get(i);
            String hub = PolicyChecks.requiredString(KEY, g, "recipient_hub", where);
            if (!PolicyChecks.hubId(hub)) {
                throw new PolicyFileException(KEY, where + ": 'recipient_hub' is not one hub id");
            }
            String scope = PolicyChecks.requiredString(KEY, g, "scope", where);
            if (!PolicyChecks.namespace(scope)) {
                throw new PolicyFileException(KEY, where + ": 'scope' must be one project (no wildcard)");
            }
            String digest = PolicyChecks.requiredString(KEY, g, "digest", where);
            if (!PolicyChecks.DIGEST.matcher(digest).matches()) {
                throw new PolicyFileException(KEY, where + ": 'digest' must be 64 lowercase hex");
            }
            Double expires = PolicyChecks.expiry(KEY, g, where);
            if (expires == null) {
                throw new PolicyFileException(KEY, where + ": 'expires_at' is required");
            }
            if (!seen.add(hub + "\u0000" + scope + "\u0000" + digest)) {
                throw new PolicyFileException(KEY, where + ": a second grant for the same recipient, scope and digest");
            }
            grants.add(new Grant(hub, scope, digest, expires));
        }
        return new RecipientPolicy(grants);
    }

    /** True when a live grant names exactly ({@code recipient}, {@code scope}, {@code digest}) at {@code now}. */
    public boolean allows(String recipient, String scope, String digest, double now) {
        return grants.stream().anyMatch(g -> g.recipientHub().equals(recipient) && g.scope().equals(scope)
                && g.digest().equals(digest) && now < g.expiresAt());
    }
}
