package org.switchboard.synapse.messageauth;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.switchboard.journal.SideRows;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.pipeline.FrameInFlight;
import org.switchboard.synapse.pipeline.PipelineStep;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * Pipeline step 14 (synapse-advanced §1.4): per-message authentication of the signed verbs (§6.3
 * HMAC {@code auth}, or a §6.4 Ed25519 {@code signature} when a trust bundle is configured). With
 * {@code hub.require-message-auth} every signed verb must verify; without it, a signed verb that
 * carries {@code auth}/{@code signature} on a hub with the matching material is still verified and
 * refused when it fails (a forged or replayed frame is never let through because the requirement is
 * off). A refusal is a private {@code error} with {@code verification_result} (for {@code release}
 * also {@code release_operation_id} and {@code task_id}); nothing changes state.
 *
 * <p>Where the journal writes side rows, an accepted nonce is made durable by the journal's group
 * commit ({@link JournalNonceStore}), not by a commit of its own. A verb of {@link #SIGNED_VERBS}
 * journals its effect on this thread and answers only once that append committed, so the nonce rides
 * in the append's transaction: one commit for both, and a failed one applies neither. A nonce no
 * append took (the frame was refused, or a keyed retry got its stored answer: nothing was applied) is
 * appended on its own by {@link #frameDone()}. An attachment verb's effect is not journalled: its
 * nonce is committed here, before the frame goes on.
 */
public final class MessageAuthStep implements PipelineStep {

    private static final Logger LOG = Logger.getLogger(MessageAuthStep.class.getName());

    /** The verbs §6.3 covers ({@code resource} aliases arrive here de-aliased by step 3). */
    public static final Set<String> SIGNED_VERBS = Set.of("claim", "release", "task_update", "handoff", "checkpoint",
            "resource");
    /** The attachment verbs (§3.4) that join the signed set on an attachment-enabled hub (§6.3 [REF]). */
    public static final Set<String> ATTACHMENT_VERBS = Set.of("attachment_begin", "attachment_chunk",
            "attachment_commit", "attachment_abort", "attachment_info", "attachment_read", "attachment_ref",
            "attachment_gc");

    private final SynapseContext ctx;
    private final boolean required;
    private volatile Set<String> signedVerbs;
    private final MessageAuthKeys keys;
    private final SignedEventTrust trust;
    private final Supplier<NonceStore> storeFactory;
    private final DoubleSupplier clock;
    private volatile Verifiers verifiers;
    private volatile JournalNonceStore journalNonces;

    /** How long a frame waits for its nonce's commit before it is refused (as long as an awaited journal append). */
    static final long NONCE_COMMIT_WAIT_SECONDS = 30;

    private record Verifiers(MessageAuthVerifier hmac, SignedEvents signatures) {
    }

    /**
     * A step with loaded material ({@code keys}/{@code trust} may be null), the durable nonce store
     * opened on first use, and {@code clock} in epoch seconds.
     */
    public MessageAuthStep(SynapseContext ctx, boolean required, boolean attachmentsEnabled, MessageAuthKeys keys,
                           SignedEventTrust trust, Supplier<NonceStore> storeFactory, DoubleSupplier clock) {
        this.ctx = ctx;
        this.required = required;
        Set<String> verbs = new HashSet<>(SIGNED_VERBS);
        if (attachmentsEnabled) {
            verbs.addAll(ATTACHMENT_VERBS);
        }
        this.signedVerbs = Set.copyOf(verbs);
        this.keys = keys;
        this.trust = trust;
        this.storeFactory = storeFactory;
        this.clock = clock;
    }

    /** The step for the running hub: material from the settings, nonces in the database ({@code jdbc/switchboard}). */
    public static MessageAuthStep forHub(SynapseContext ctx) {
        SynapseSettings settings = ctx.settings();
        MessageAuthKeys keys = null;
        SignedEventTrust trust = null;
        boolean required = settings.requireMessageAuth();
        try {
            MessageAuthStartup.Material material = MessageAuthStartup.load(settings);
            keys = material.keys();
            trust = material.trust();
        } catch (PolicyFileException e) {
            // the runtime logs the refusal once and serves nothing; fail closed here as well
            required = true;
        }
        return new MessageAuthStep(ctx, required, false, keys, trust, () -> hubStore(ctx),
                () -> System.currentTimeMillis() / 1000.0);
    }

    /** Nonces through the journal's group commit when it writes side rows, else committed on their own. */
    private static NonceStore hubStore(SynapseContext ctx) {
        NonceStore table = databaseStore();
        if (ctx.hasJournal() && ctx.journal().writesSideRows()) {
            return new JournalNonceStore(ctx.journal(), table, ctx.blocking());
        }
        return table;
    }

    private static NonceStore databaseStore() {
        try {
            return new JdbcNonceStore((DataSource) new InitialContext().lookup("jdbc/switchboard"));
        } catch (NamingException e) {
            // outside the container (unit-built hubs): nothing durable to write to
            LOG.warning("no jdbc/switchboard data source; the message-auth replay store is in memory only");
            return NonceStore.NONE;
        }
    }

    /** The attachment store opened (§3.1 posture present): its verbs join the signed set (§3.2). */
    public void signAttachmentVerbs() {
        Set<String> verbs = new HashSet<>(signedVerbs);
        verbs.addAll(ATTACHMENT_VERBS);
        signedVerbs = Set.copyOf(verbs);
    }

    /** The verbs this step checks. */
    public Set<String> signedVerbs() {
        return signedVerbs;
    }

    @Override
    public boolean pass(FrameInFlight f) {
        if (!signedVerbs.contains(f.type())) {
            return true;
        }
        JsonObject frame = f.frame();
        boolean hasAuth = keys != null && frame.containsKey("auth");
        boolean hasSignature = trust != null && frame.containsKey("signature");
        if (!required && !hasAuth && !hasSignature) {
            return true;
        }
        String name = f.connection().name();
        String result;
        if (hasAuth || (!hasSignature && keys != null)) {
            result = verifiers().hmac().verify(frame, name, clock.getAsDouble());
        } else if (hasSignature || trust != null) {
            result = verifiers().signatures().verify(frame, name, clock.getAsDouble());
            if (AuthResult.MISSING_SIGNATURE.equals(result)) {
                result = AuthResult.MISSING;
            }
        } else {
            result = AuthResult.MISSING; // required, but the material failed to load
        }
        if (AuthResult.passes(result) && !nonceDurableInTime(f.type())) {
            result = AuthResult.REPLAYED; // fail closed, as a store that cannot write: nothing was applied
        }
        ctx.counters().messageAuthResult(result);
        if (AuthResult.passes(result)) {
            return true;
        }
        f.connection().send(refusal(name, f.type(), frame, result));
        return false;
    }

    /**
     * For an accepted frame whose nonce waits on this thread: a verb that journals its effect here
     * leaves it for that append; any other verb commits it now. False when that commit failed.
     */
    private boolean nonceDurableInTime(String type) {
        JournalNonceStore store = journalNonces;
        if (store == null || SIGNED_VERBS.contains(type) || !SideRows.attached()) {
            return true;
        }
        return committed(store.writeAttached());
    }

    /**
     * Called once a frame has left the pipeline, whatever happened to it (the dispatcher's
     * {@code finally}): a nonce no journal append took (the frame applied nothing) joins the journal's
     * next commit without holding this thread.
     */
    public void frameDone() {
        JournalNonceStore store = journalNonces;
        if (store == null || !SideRows.attached()) {
            return;
        }
        store.writeAttached().whenComplete((seqs, failure) -> {
            if (failure != null) {
                LOG.warning("message-auth nonce of a frame that applied nothing was not committed: " + failure);
            }
        });
    }

    private static boolean committed(CompletableFuture<long[]> commit) {
        try {
            commit.get(NONCE_COMMIT_WAIT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warning("message-auth nonce commit failed: " + e);
            return false;
        }
    }

    /** The private refusal frame (§6.3; §10.2 for the release echo). */
    String refusal(String name, String type, JsonObject frame, String result) {
        JsonObjectBuilder error = ctx.frames().error(name, "message authentication failed: " + result)
                .add("verification_result", result);
        if ("release".equals(type)) {
            if (frame.get("idem_key") instanceof JsonString key) {
                error.add("release_operation_id", key.getString());
            }
            if (frame.get("task_id") instanceof JsonString task) {
                error.add("task_id", task.getString());
            }
        }
        return error.build().toString();
    }

    private Verifiers verifiers() {
        Verifiers current = verifiers;
        if (current == null) {
            synchronized (this) {
                if (verifiers == null) {
                    SynapseSettings s = ctx.settings();
                    NonceStore store = storeFactory.get();
                    if (store instanceof JournalNonceStore journalled) {
                        journalNonces = journalled;
                    }
                    NonceCache cache = new NonceCache(s.messageAuthNonceCache(), store, clock.getAsDouble());
                    verifiers = new Verifiers(
                            keys == null ? null : new MessageAuthVerifier(keys, cache, s.messageAuthWindowSeconds(),
                                    s.messageAuthSkewSeconds()),
                            trust == null ? null : new SignedEvents(trust, cache, s.messageAuthWindowSeconds(),
                                    s.messageAuthSkewSeconds()));
                }
                current = verifiers;
            }
        }
        return current;
    }
}
