package org.switchboard.synapse.attachments;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.wire.HubFrames;

/**
 * The attachment verbs of synapse-advanced §3: applies the §3.2 gates in order, then one store
 * operation, and answers a private {@code attachment_result}. Nothing is broadcast, journalled or kept
 * in history. Without the full §3.1 posture the store is never opened and every verb answers
 * {@code attachments disabled}.
 */
public final class AttachmentService {

    private static final Logger LOG = Logger.getLogger(AttachmentService.class.getName());

    /**
     * Minimum negotiated wire version for the local attachment verbs (§1.1). The hub does not advertise
     * 4 yet ({@link org.switchboard.synapse.SynapseSettings#PROTOCOL_VERSION}): that waits for the
     * security layers, without which the store never opens.
     */
    public static final int MIN_VERSION = 4;
    static final String WRITE = "attachment-write";
    static final String READ = "attachment-read";
    static final String ADMIN = "attachment-admin";

    /** The permission each verb needs (§3.2); admin does not imply read. */
    static final Map<String, String> PERMISSIONS = Map.of(
            "attachment_begin", WRITE, "attachment_chunk", WRITE, "attachment_commit", WRITE,
            "attachment_abort", WRITE, "attachment_ref", WRITE,
            "attachment_info", READ, "attachment_read", READ,
            "attachment_gc", ADMIN);

    private final SynapseContext ctx;
    private final AttachmentAuthority authority;
    private final AttachmentStore store;

    /** A service over {@code store} ({@code null} = disabled) whose gates 4-5 ask {@code authority}. */
    public AttachmentService(SynapseContext ctx, AttachmentStore store, AttachmentAuthority authority) {
        this.ctx = ctx;
        this.store = store;
        this.authority = authority;
    }

    /**
     * The hub's service as built today: the security layers of §3.1 (identity binding, message auth,
     * ACL, role grants) are not part of this hub yet, so the posture is incomplete, the store is never
     * opened and no ledger is needed. The security layers replace {@link AttachmentPosture.SecurityPieces#NONE},
     * {@link AttachmentAuthority#DENY_ALL} and the ledger ({@link JpaAttachmentLedger}) when they merge.
     */
    public static AttachmentService forHub(SynapseContext ctx, boolean durableJournal) {
        String dir = ctx.settings().attachmentsDir();
        AttachmentPosture posture = AttachmentPosture.of(dir, durableJournal, !ctx.settings().token().isEmpty(),
                AttachmentPosture.SecurityPieces.NONE);
        return start(ctx, dir, posture, AttachmentAuthority.DENY_ALL, () -> {
            throw new IllegalStateException("the attachment ledger comes with the security layers");
        });
    }

    /**
     * Opens the store at {@code dir} only when {@code posture} reports nothing missing; otherwise the
     * service is disabled, and when a directory was configured one WARNING names the missing pieces.
     */
    public static AttachmentService start(SynapseContext ctx, String dir, AttachmentPosture posture,
                                          AttachmentAuthority authority, java.util.function.Supplier<AttachmentLedger> ledger) {
        List<String> missing = posture.missing();
        if (!missing.isEmpty()) {
            if (dir != null && !dir.isBlank()) {
                LOG.warning("SYNAPSE attachments: hub.attachments.dir is set but the store stays disabled;"
                        + " missing: " + String.join("; ", missing));
            }
            return new AttachmentService(ctx, null, authority);
        }
        try {
            return new AttachmentService(ctx, AttachmentStore.open(Path.of(dir), ledger.get(), ctx.frames()::now,
                    AttachmentStore.Limits.SPEC), authority);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.SEVERE, "SYNAPSE attachments: hub.attachments.dir refused; the store stays disabled", e);
            return new AttachmentService(ctx, null, authority);
        }
    }

    /** True when the store is open. */
    public boolean enabled() {
        return store != null;
    }

    /** The socket closed: its uploads are discarded (§3.4, never resumable). */
    public void closed(Connection connection) {
        if (store != null && connection.name() != null) {
            store.sessionClosed(owner(connection, connection.name()));
        }
    }

    /** One {@code attachment_*} frame from {@code sender} on {@code connection}. */
    public void handle(Connection connection, String sender, String type, JsonObject frame) {
        JsonObjectBuilder result;
        try {
            gates(connection, sender, type, frame);
            result = operation(connection, sender, type, frame);
            result.add("ok", true);
        } catch (AttachmentRefusal refusal) {
            ctx.counters().attachmentErrors.computeIfAbsent(refusal.error(), e -> new LongAdder()).increment();
            result = Jsons.PROVIDER.createObjectBuilder().add("ok", false).add("error", refusal.error());
        }
        JsonObjectBuilder frameOut = ctx.frames().hub("attachment_result", sender, "").add("operation", type);
        result.build().forEach(frameOut::add);
        connection.send(HubFrames.encode(frameOut.build()));
    }

    /** §3.2 gates 1-5 in order; nothing else in the frame is examined before all pass. */
    private void gates(Connection connection, String sender, String type, JsonObject frame) {
        if (store == null) {
            throw new AttachmentRefusal(AttachmentErrors.DISABLED);
        }
        if (connection.protocolVersion() < MIN_VERSION) {
            throw new AttachmentRefusal(AttachmentErrors.VERSION);
        }
        String scope = frame.get("scope") instanceof JsonString s ? s.getString() : null;
        if (scope == null || !scope.equals(project(sender))) {
            throw new AttachmentRefusal(AttachmentErrors.ACCESS_DENIED);
        }
        AttachmentGrammar.scope(scope);
        String permission = PERMISSIONS.get(type);
        if (permission == null || !authority.roleGranted(sender, scope, permission)
                || !authority.aclAllows(sender, scope, permission)) {
            throw new AttachmentRefusal(AttachmentErrors.ACCESS_DENIED);
        }
    }

    /** The sender's project: the part of the name before the first {@code /} (the whole name without one). */
    static String project(String sender) {
        int slash = sender.indexOf('/');
        return slash < 0 ? sender : sender.substring(0, slash);
    }

    private static String owner(Connection connection, String sender) {
        return sender + "\0" + connection.id();
    }

    private JsonObjectBuilder operation(Connection connection, String sender, String type, JsonObject frame) {
        String scope = AttachmentGrammar.string(frame, "scope");
        String owner = owner(connection, sender);
        JsonObjectBuilder out = Jsons.PROVIDER.createObjectBuilder();
        switch (type) {
            case "attachment_begin" -> {
                String digest = AttachmentGrammar.digest(AttachmentGrammar.string(frame, "digest"));
                long length = AttachmentGrammar.length(AttachmentGrammar.integer(frame, "length"));
                String mediaType = AttachmentGrammar.mediaType(AttachmentGrammar.string(frame, "media_type"));
                String provenance = AttachmentGrammar.provenance(AttachmentGrammar.string(frame, "provenance"));
                double expiresAt = AttachmentGrammar.expiresAt(AttachmentGrammar.number(frame, "expires_at"), ctx.frames().now());
                out.add("upload_id", store.begin(owner,
                        new AttachmentMetadata(scope, digest, length, mediaType, provenance, expiresAt)));
            }
            case "attachment_chunk" -> {
                String uploadId = AttachmentGrammar.string(frame, "upload_id");
                long offset = AttachmentGrammar.integer(frame, "offset");
                byte[] body = AttachmentGrammar.chunkBody(AttachmentGrammar.string(frame, "body"));
                out.add("received", store.chunk(owner, uploadId, offset, body));
            }
            case "attachment_commit" -> out.add("metadata", metadata(store.commit(owner, AttachmentGrammar.string(frame, "upload_id"))));
            case "attachment_abort" -> store.abort(owner, AttachmentGrammar.string(frame, "upload_id"));
            case "attachment_info" -> out.add("metadata",
                    metadata(store.info(scope, AttachmentGrammar.digest(AttachmentGrammar.string(frame, "digest")))));
            case "attachment_read" -> {
                String digest = AttachmentGrammar.digest(AttachmentGrammar.string(frame, "digest"));
                long offset = AttachmentGrammar.integer(frame, "offset");
                AttachmentStore.Chunk chunk = store.read(scope, digest, offset, AttachmentGrammar.flag(frame, "preview"));
                out.add("body", Base64.getEncoder().encodeToString(chunk.body())).add("eof", chunk.eof())
                        .add("offset", chunk.offset()).add("digest", digest);
                if (chunk.previewHtml() != null) {
                    out.add("preview_html", chunk.previewHtml());
                }
            }
            case "attachment_ref" -> {
                String digest = AttachmentGrammar.digest(AttachmentGrammar.string(frame, "digest"));
                String ref = AttachmentGrammar.ref(AttachmentGrammar.string(frame, "ref"));
                store.ref(scope, digest, ref, AttachmentGrammar.flag(frame, "remove"));
            }
            case "attachment_gc" -> {
                // only the literal false disables the dry run (§3.4)
                boolean dryRun = frame.get("dry_run") != JsonValue.FALSE;
                JsonArrayBuilder digests = Jsons.PROVIDER.createArrayBuilder();
                store.gc(scope, dryRun).forEach(digests::add);
                out.add("digests", digests);
            }
            default -> throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
        }
        return out;
    }

    private static JsonObjectBuilder metadata(AttachmentMetadata m) {
        return Jsons.PROVIDER.createObjectBuilder().add("scope", m.scope()).add("digest", m.digest())
                .add("length", m.length()).add("media_type", m.mediaType()).add("provenance", m.provenance())
                .add("expires_at", m.expiresAt());
    }
}
