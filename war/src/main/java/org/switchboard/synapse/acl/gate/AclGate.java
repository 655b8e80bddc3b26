package org.switchboard.synapse.acl.gate;

import java.util.List;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.acl.Access;
import org.switchboard.synapse.acl.AccessMap;
import org.switchboard.synapse.acl.AclDecision;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.AclRefusal;
import org.switchboard.synapse.pipeline.FrameInFlight;
import org.switchboard.synapse.pipeline.PipelineStep;

/**
 * Step 17 of the frame pipeline (synapse-advanced §1.4, §6.6): with {@code hub.require-acl}, every
 * access a frame needs must be allowed, and a mutating type without a mapping is denied; a refusal
 * is a private {@code error} carrying the decision and nothing changes. Without enforcement every
 * frame passes (the always-enforced grants are checked in their handlers).
 */
public final class AclGate implements PipelineStep {

    /** Answer to every frame while the configured ACL files are refused (no content of the file). */
    static final String FAILED_CLOSED = "ACL configuration refused: the hub serves no frames";

    private final SynapseContext ctx;
    private final AclLayer layer;

    /** The gate of the hub with context {@code ctx}. */
    public AclGate(SynapseContext ctx) {
        this.ctx = ctx;
        this.layer = AclLayer.of(ctx);
    }

    @Override
    public boolean pass(FrameInFlight f) {
        String name = f.connection().name();
        if (layer.failure() != null) {
            f.connection().send(ctx.frames().errorText(name == null ? "all" : name, FAILED_CLOSED));
            return false;
        }
        if (!layer.enforced()) {
            return true;
        }
        List<Access> accesses = AccessMap.required(f.type(), f.frame(), name, f.target());
        if (accesses == null) {
            if (f.handler() == null || !f.handler().mutating(f.type())) {
                return true;
            }
            layer.denied(AclLayer.UNMAPPED);
            return refuse(f, name, new AclDecision(false, AclLayer.UNMAPPED, "type:" + f.type(), AclDecision.UNMAPPED_TYPE));
        }
        for (Access access : accesses) {
            AclDecision decision = layer.decide(name, access);
            if (!decision.allowed()) {
                return refuse(f, name, decision);
            }
        }
        return true;
    }

    private boolean refuse(FrameInFlight f, String name, AclDecision decision) {
        f.connection().send(AclRefusal.frame(ctx.frames(), name, f.type(), f.frame(), decision));
        return false;
    }
}
