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
    // set once by the cross-hub wiring, before the hub accepts its first socket (null: no peers)
    private volatile RemoteAttachments remote;
    private volatile String hubId;

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

    /**
     * Lets {@code attachment_info}/{@code attachment_read} name a {@code source_hub}: a configured peer
     * hub whose object this hub fetches for the agent (ours, synapse-advanced §5; this hub is
     * {@code ownHubId}, whose name means the local store).
     */
    public void remote(RemoteAttachments remoteReads, String ownHubId) {
        this.hubId = ownHubId;
        this.remote = remoteReads;
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
            String source = sourceHub(type, frame);
            if (source != null) {
                // the agent's own gates passed; the peer exchange blocks (up to 10 s), so off the socket's thread
                RemoteRead read = remoteRead(type, frame);
                ctx.blocking().execute(() -> answer(connection, sender, type, fetch(source, read), source));
                return;
            }
            result = operation(connection, sender, type, frame);
            result.add("ok", true);
        } catch (AttachmentRefusal refusal) {
            result = refused(refusal);
        }
        answer(connection, sender, type, result, null);
    }

    private JsonObjectBuilder refused(AttachmentRefusal refusal) {
        ctx.counters().attachmentErrors.computeIfAbsent(refusal.error(), e -> new LongAdder()).increment();
        return Jsons.PROVIDER.createObjectBuilder().add("ok", false).add("error", refusal.error());
    }

    private void answer(Connection connection, String sender, String type, JsonObjectBuilder result, String source) {
        JsonObjectBuilder frameOut = ctx.frames().hub("attachment_result", sender, "").add("operation", type);
        if (source != null) {
            frameOut.add("source_hub", source);
        }
        result.build().forEach(frameOut::add);
        connection.send(HubFrames.encode(frameOut.build()));
    }

    /** A remote {@code info} or {@code read}, its fields checked here before any peer is asked. */
    private record RemoteRead(String action, String scope, String digest, Long offset) {
    }

    /**
     * The peer hub an {@code attachment_info}/{@code attachment_read} names in {@code source_hub}, or
     * null for a local request (absent, or this hub's own id). Any other verb naming one, a value that
     * is not a configured peer, or a hub without peers: {@code attachment unavailable}.
     */
    private String sourceHub(String type, JsonObject frame) {
        JsonValue value = frame.get("source_hub");
        if (value == null) {
            return null;
        }
        if (value instanceof JsonString s && s.getString().equals(hubId)) {
            return null;
        }
        if (!(value instanceof JsonString) || remote == null
                || !"attachment_info".equals(type) && !"attachment_read".equals(type)) {
            throw new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
        }
        return ((JsonString) value).getString();
    }

    private static RemoteRead remoteRead(String type, JsonObject frame) {
        String scope = AttachmentGrammar.string(frame, "scope");
        String digest = AttachmentGrammar.digest(AttachmentGrammar.string(frame, "digest"));
        if ("attachment_info".equals(type)) {
            return new RemoteRead("info", scope, digest, null);
        }
        long offset = AttachmentGrammar.integer(frame, "offset");
        if (offset < 0 || offset > AttachmentGrammar.MAX_LENGTH) {
            throw new AttachmentRefusal(AttachmentErrors.INVALID_READ_OFFSET);
        }
        return new RemoteRead("read", scope, digest, offset);
    }

    private JsonObjectBuilder fetch(String source, RemoteRead read) {
        try {
            JsonObject fields = remote.fetch(source, read.action(), read.scope(), read.digest(), read.offset());
            return Jsons.PROVIDER.createObjectBuilder(fields).add("ok", true);
        } catch (AttachmentRefusal refusal) {
            return refused(refusal);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "remote attachment read failed", e);
            return refused(new AttachmentRefusal(AttachmentErrors.UNAVAILABLE));
        }
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
