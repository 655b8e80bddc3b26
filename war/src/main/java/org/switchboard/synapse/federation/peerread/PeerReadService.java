package org.switchboard.synapse.federation.peerread;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.attachments.AttachmentMetadata;
import org.switchboard.synapse.attachments.AttachmentRefusal;
import org.switchboard.synapse.attachments.AttachmentStore;
import org.switchboard.synapse.federation.policy.PeerAuthority;
import org.switchboard.synapse.federation.policy.PolicyChecks;
import org.switchboard.synapse.federation.policy.RecipientPolicy;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * Serves {@code attachment_peer_request} (synapse-advanced §5.3, §5.4): every check before any object
 * lookup — negotiated version ≥ 6 on a proven peer, the serving policy's {@code read} grant for the
 * scope, a live grant in the recipient policy (re-read and re-parsed for this request) — then the
 * object (present, not expired) and, for {@code read}, the store's full digest verification. Every
 * handler refusal is exactly {@code {ok:false, error:"attachment unavailable"}}; every request writes
 * one private audit row, and a failed audit write refuses.
 */
public final class PeerReadService {

    /** Lowest negotiated version for peer reads (§1.1). */
    public static final int MIN_VERSION = 6;
    /** The uniform refusal text [SEED]. */
    public static final String UNAVAILABLE = "attachment unavailable";
    /** The serving-policy verb a peer read needs. */
    public static final String VERB = "read";

    private static final Logger LOG = Logger.getLogger(PeerReadService.class.getName());

    private final SynapseContext ctx;
    private final PeerAuthority peers;
    private final Path recipientPolicy;
    private final Supplier<AttachmentStore> store;
    private final PeerReadAudit audit;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /**
     * Peer reads over the store ({@code store} gives null while it is closed), judged by {@code peers}
     * and the recipient policy at {@code recipientPolicy} (null: not configured, every read refused).
     */
    public PeerReadService(SynapseContext ctx, PeerAuthority peers, Path recipientPolicy, Supplier<AttachmentStore> store,
                           PeerReadAudit audit) {
        this.ctx = ctx;
        this.peers = peers;
        this.recipientPolicy = recipientPolicy;
        this.store = store;
        this.audit = audit;
    }

    /** Requests by outcome ({@code allowed}, {@code denied}) for /metrics. */
    public Map<String, LongAdder> counts() {
        return counts;
    }

    /** The audit (owner tooling, tests). */
    public PeerReadAudit audit() {
        return audit;
    }

    /** One request on {@code connection}; the private {@code attachment_peer_result} is sent on it. */
    public void handle(Connection connection, JsonObject frame) {
        double now = ctx.frames().now();
        String action = frame.get("action") instanceof JsonString a && ("info".equals(a.getString())
                || "read".equals(a.getString())) ? a.getString() : "invalid";
        String scope = frame.get("scope") instanceof JsonString s && PolicyChecks.namespace(s.getString()) ? s.getString() : "";
        String digest = frame.get("digest") instanceof JsonString d && PolicyChecks.DIGEST.matcher(d.getString()).matches()
                ? d.getString() : "";
        String recipient = connection.name() == null ? "" : connection.name();
        JsonObjectBuilder answer = null;
        String peer = peers.peerId(connection, MIN_VERSION, now);
        Long offset = offset(frame);
        if (peer != null && !"invalid".equals(action) && !scope.isEmpty() && !digest.isEmpty()
                && ("info".equals(action) || offset != null)
                && peers.policy().grants(peer, scope, VERB, now) && recipientAllows(peer, scope, digest, now)) {
            answer = serve(action, scope, digest, offset, now);
        }
        boolean allowed = answer != null;
        try {
            audit.record(now, recipient.length() > 128 ? recipient.substring(0, 128) : recipient, scope, digest, action,
                    allowed);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "peer attachment audit write failed; the request is refused", e);
            allowed = false;
        }
        counts.computeIfAbsent(allowed ? "allowed" : "denied", k -> new LongAdder()).increment();
        if (!allowed) {
            answer = Jsons.PROVIDER.createObjectBuilder().add("ok", false).add("error", UNAVAILABLE);
        }
        JsonObjectBuilder out = ctx.frames().hub("attachment_peer_result", recipient, "");
        answer.build().forEach(out::add);
        connection.send(out.build().toString());
    }

    private boolean recipientAllows(String peer, String scope, String digest, double now) {
        if (recipientPolicy == null) {
            return false;
        }
        try {
            return RecipientPolicy.load(recipientPolicy).allows(peer, scope, digest, now);
        } catch (PolicyFileException e) {
            LOG.fine("recipient policy refused: " + e.getMessage());
            return false; // missing, invalid or no longer private: deny everything
        }
    }

    private JsonObjectBuilder serve(String action, String scope, String digest, Long offset, double now) {
        AttachmentStore current = store.get();
        if (current == null) {
            return null;
        }
        try {
            AttachmentMetadata m = current.info(scope, digest);
            if (m.expired(now)) {
                return null; // expiry also denies metadata
            }
            if ("info".equals(action)) {
                return Jsons.PROVIDER.createObjectBuilder().add("ok", true).add("metadata", Jsons.PROVIDER.createObjectBuilder()
                        .add("scope", m.scope()).add("digest", m.digest()).add("length", m.length())
                        .add("media_type", m.mediaType()).add("provenance", m.provenance()).add("expires_at", m.expiresAt()));
            }
            AttachmentStore.Chunk chunk = current.read(scope, digest, offset, false);
            return Jsons.PROVIDER.createObjectBuilder().add("ok", true).add("scope", scope).add("digest", digest)
                    .add("offset", chunk.offset()).add("body", Base64.getEncoder().encodeToString(chunk.body()))
                    .add("eof", chunk.eof());
        } catch (AttachmentRefusal e) {
            return null;
        }
    }

    /** {@code offset}: a JSON integer (not a bool, not a float), or null. */
    private static Long offset(JsonObject frame) {
        JsonValue v = frame.get("offset");
        if (v instanceof JsonNumber n && n.isIntegral()) {
            try {
                return n.longValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }
}
