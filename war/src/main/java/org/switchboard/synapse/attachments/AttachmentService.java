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
import java.util.function.Supplier;
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

    /** Minimum negotiated wire version for the local attachment verbs (§1.1). */
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
    // set once by open(), before the hub accepts its first socket
    private volatile AttachmentAuthority authority;
    private volatile AttachmentStore store;

    /** A service over {@code store} ({@code null} = disabled) whose gates 4-5 ask {@code authority}. */
    public AttachmentService(SynapseContext ctx, AttachmentStore store, AttachmentAuthority authority) {
        this.ctx = ctx;
        this.store = store;
        this.authority = authority;
    }

    /**
     * The hub's service while it is being built: closed (every verb answers {@code attachments
     * disabled}) until the container wiring has configured the security layers and calls {@link #open}.
     */
    public static AttachmentService closed(SynapseContext ctx) {
        return new AttachmentService(ctx, null, AttachmentAuthority.DENY_ALL);
    }

    /**
     * Opens the store at {@code hub.attachments.dir} when the §3.1 posture is complete: the directory,
     * a durable journal, the connect token and every piece {@code security} reports. With every piece
     * present one INFO line says the store is open and where; otherwise the store stays closed and one
     * line names the missing pieces (WARNING when a directory was configured, INFO when not). A root
     * the store refuses (permissions, symlink) is one SEVERE line. Returns {@link #enabled()}.
     */
    public boolean open(AttachmentPosture.SecurityPieces security, AttachmentAuthority gates,
                        Supplier<AttachmentLedger> ledger) {
        String dir = ctx.settings().attachmentsDir();
        AttachmentPosture posture = AttachmentPosture.of(dir, ctx.hasJournal(), ctx.settings().secured(), security);
        List<String> missing = posture.missing();
        if (!missing.isEmpty()) {
            String line = "SYNAPSE attachments: " + (dir == null || dir.isBlank() ? "store closed"
                    : "hub.attachments.dir is set but the store stays disabled") + "; missing: " + String.join("; ", missing);
            if (dir == null || dir.isBlank()) {
                LOG.info(line);
            } else {
                LOG.warning(line);
            }
            return false;
        }
        try {
            Path root = Path.of(dir);
            AttachmentStore opened = AttachmentStore.open(root, ledger.get(), ctx.frames()::now, AttachmentStore.Limits.SPEC);
            this.authority = gates;
            this.store = opened;
            LOG.info("SYNAPSE attachments: store open at " + root.toAbsolutePath().normalize()
                    + " (wire v4; ledger in the hub's database; staging discarded)");
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.SEVERE, "SYNAPSE attachments: hub.attachments.dir refused; the store stays disabled: "
                    + e.getMessage());
        }
        return enabled();
    }

    /** True when the store is open. */
    public boolean enabled() {
        return store != null;
    }

    /** The open store, or null while closed (peer attachment reads of synapse-advanced §5.3 read through it). */
    public AttachmentStore store() {
        return store;
    }

    /** The socket closed: its uploads are discarded (§3.4, never resumable). */
    public void closed(Connection connection) {
        AttachmentStore current = store;
        if (current != null && connection.name() != null) {
            current.sessionClosed(owner(connection, connection.name()));
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
