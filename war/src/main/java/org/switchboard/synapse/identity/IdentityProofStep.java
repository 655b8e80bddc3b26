package org.switchboard.synapse.identity;

import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.pipeline.FrameInFlight;
import org.switchboard.synapse.pipeline.PipelineStep;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * §1.4 step 6, identity proof: on a socket's first frame only, {@link IdentityBinding} decides on the
 * frame as sent (the signature covers {@code token}, so this runs before step 7 strips it); a refusal
 * is a private {@code error} carrying {@code identity_result}, then close 4013. Bound sockets pass.
 */
public final class IdentityProofStep implements PipelineStep {

    private static final Logger LOG = Logger.getLogger(IdentityProofStep.class.getName());

    private static final java.util.Map<SynapseContext, IdentityBinding> BINDINGS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private final SynapseContext ctx;
    private final IdentityBinding binding;

    /** The rules the identity step of the hub with context {@code ctx} applies (null before it is built). */
    public static IdentityBinding bindingOf(SynapseContext ctx) {
        return BINDINGS.get(ctx);
    }

    /** The step for the hub of {@code ctx}: its settings choose the mode; pins live in the server's table. */
    public IdentityProofStep(SynapseContext ctx) {
        this(ctx, PinStoreLookup::resolve);
    }

    /** As above with pins kept in the store {@code pinStore} yields (unit tests pass a memory store). */
    public IdentityProofStep(SynapseContext ctx, Supplier<PinStore> pinStore) {
        this.ctx = ctx;
        this.binding = binding(ctx.settings(), pinStore);
        BINDINGS.put(ctx, binding); // the governed verbs (§7) read and swap it
    }

    static IdentityBinding binding(SynapseSettings settings, Supplier<PinStore> pinStore) {
        TrustBundle bundle = null;
        String fault = null;
        String path = settings.identityTrust();
        if (path != null && !path.isBlank()) {
            try {
                bundle = TrustBundle.load(Path.of(path.trim()));
                LOG.info("SYNAPSE identity binding: " + bundle.size() + " trusted key(s) from " + TrustBundle.KEY
                        + (settings.requireIdentityBinding() ? ", binding required" : ""));
            } catch (PolicyFileException e) {
                fault = e.getMessage();
                // fail closed: every registration is refused until the file is fixed and the hub restarted
                // the runtime logs the one SEVERE line and stops serving (IdentityStartup); refuse meanwhile
                LOG.fine("SYNAPSE identity trust bundle refused, registrations will be refused: " + e.getMessage());
            }
        } else if (settings.requireIdentityBinding()) {
            LOG.fine("SYNAPSE hub.require-identity-binding=true without " + TrustBundle.KEY
                    + ": every registration will be refused");
        }
        IdentityPins pins = settings.identityPins() ? new IdentityPins(pinStore) : null;
        return new IdentityBinding(bundle, fault, settings.requireIdentityBinding(), pins);
    }

    /** The rules this step applies (the "proven requester" query of the governed verbs reads them). */
    public IdentityBinding binding() {
        return binding;
    }

    @Override
    public boolean pass(FrameInFlight f) {
        Connection connection = f.connection();
        if (connection.isBound()) {
            return true; // identity proof is a first-frame step
        }
        IdentityBinding.Decision decision = binding.check(f.sender(), f.frame(), ctx.frames().now());
        if (decision.pinCreated()) {
            ctx.counters().identityPinsCreated.increment();
        }
        if (decision.accepted()) {
            return true;
        }
        (decision.pinMismatch() ? ctx.counters().identityPinMismatches : ctx.counters().identityBindingFailures).increment();
        String text = ctx.frames().error(f.sender(), decision.text())
                .add("identity_result", decision.result())
                .add("close_code", IdentityBinding.CLOSE_CODE).build().toString();
        connection.markClosing();
        connection.send(text).whenComplete((ok, error) -> connection.close(IdentityBinding.CLOSE_CODE, decision.reason()));
        return false;
    }
}
