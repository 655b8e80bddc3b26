package org.switchboard.synapse.claims;

import org.switchboard.synapse.wire.SynapseCanonicalJson;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * Content-minimised {@code claim_denial} journal payload (synapse-core §9.3, synapse-advanced §9):
 * digests instead of the task id, scope and full claimant; never note, paths, git data or bodies.
 */
public final class ClaimDenialEvidence {

    /** Journal event kind. */
    public static final String EVENT_KIND = "claim_denial";
    /** Characters of the claimant name kept in clear. */
    public static final int CLAIMANT_CHARS = 256;

    private ClaimDenialEvidence() {
    }

    /** The payload for one denial. */
    public static JsonObject of(String claimant, String rawTaskId, String worktree, List<String> normalisedPaths,
                                String reasonCode) {
        boolean truncated = claimant.length() > CLAIMANT_CHARS;
        return PROVIDER.createObjectBuilder()
                .add("claimant", truncated ? claimant.substring(0, CLAIMANT_CHARS) : claimant)
                .add("claimant_sha256", SynapseCanonicalJson.sha256Hex(claimant))
                .add("claimant_truncated", truncated)
                .add("decision", "deny")
                .add("durable", true)
                .add("path_count", normalisedPaths.size())
                .add("reason_code", reasonCode)
                .add("scope_sha256", scopeSha256(worktree, normalisedPaths))
                .add("task_id_sha256", SynapseCanonicalJson.sha256Hex(rawTaskId))
                .build();
    }

    /** SHA-256 of CJ-UTF8 {@code {"paths":[…],"worktree":"…"}}. */
    public static String scopeSha256(String worktree, List<String> normalisedPaths) {
        JsonArrayBuilder paths = PROVIDER.createArrayBuilder();
        normalisedPaths.forEach(paths::add);
        return SynapseCanonicalJson.sha256Hex(SynapseCanonicalJson.utf8(
                PROVIDER.createObjectBuilder().add("paths", paths).add("worktree", worktree).build()));
    }
}
