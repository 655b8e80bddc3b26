package org.switchboard.synapse.pipeline;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.ratelimit.FrameRateLimits;
import org.switchboard.synapse.wire.HubStrings;

/** The pipeline's closing steps (§1.4 steps 13, 15 and 19): sender rate, journal recovery, dispatch. */
public final class DispatchSteps {

    private DispatchSteps() {
    }

    /** Step 13: the per-sender rate limit (non-heartbeat frames). */
    public static final class SenderRateLimit implements PipelineStep {

        private final FrameRateLimits limits;

        /** Checks against {@code limits}' sender gate. */
        public SenderRateLimit(FrameRateLimits limits) {
            this.limits = limits;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            return limits.admitSender(f.connection, f.connection.name(), f.type);
        }
    }

    /** A type without a handler gets a private {@code error} naming it. */
    public static final class KnownType implements PipelineStep {

        private final SynapseContext ctx;
        private final Map<String, VerbHandler> handlers;

        /** Looks types up in {@code handlers} (the dispatch table, filled at start-up). */
        public KnownType(SynapseContext ctx, Map<String, VerbHandler> handlers) {
            this.ctx = ctx;
            this.handlers = handlers;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            VerbHandler handler = handlers.get(f.type);
            if (handler == null) {
                f.connection.send(ctx.frames().errorText(f.connection.name(), HubStrings.unknownType(f.type)));
                return false;
            }
            f.handler = handler;
            return true;
        }
    }

    /** Step 15: while start-up replay has quarantined journal rows, mutating verbs are refused (core §16.5). */
    public static final class JournalRecoveryGate implements PipelineStep {

        private final SynapseContext ctx;
        private final IntSupplier corruptRows;

        /** Counts quarantined rows through {@code corruptRows}. */
        public JournalRecoveryGate(SynapseContext ctx, IntSupplier corruptRows) {
            this.ctx = ctx;
            this.corruptRows = corruptRows;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            int corrupt = corruptRows.getAsInt();
            if (corrupt == 0 || !f.handler.mutating(f.type)) {
                return true;
            }
            f.connection.send(ctx.frames().error(f.connection.name(), HubStrings.RECOVERY_REQUIRED)
                    .add("journal_recovery_required", true).add("corrupt_rows", corrupt)
                    .add("first_corrupt_seq", firstCorruptSeq()).build().toString());
            return false;
        }

        private long firstCorruptSeq() {
            List<Long> seqs = ctx.hasJournal() ? ctx.journal().corruptSeqs() : List.of();
            return seqs.stream().mapToLong(Long::longValue).min().orElse(0);
        }
    }

    /** Step 19: the frame, with the bound sender and canonical type and target, goes to its verb handler. */
    public static final class Dispatch implements PipelineStep {

        private final SynapseContext ctx;

        /** Hands frames to handlers with {@code ctx}. */
        public Dispatch(SynapseContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            String name = f.connection.name();
            JsonObject canonical = normalised(f.frame, name, f.type, f.target, f.rawSender, f.rawType, f.rawTarget);
            f.handler.handle(new InboundFrame(f.connection, name, f.type, f.target, canonical, f.firstBind), ctx);
            return true;
        }
    }

    /** As {@link #normalised(JsonObject, String, String, String, String, String, String)}, reading the routing strings from the frame. */
    public static JsonObject normalised(JsonObject frame, String name, String type, String target) {
        return normalised(frame, name, type, target, RoutingSteps.stringOrNull(frame.get("sender")),
                RoutingSteps.stringOrNull(frame.get("type")), RoutingSteps.stringOrNull(frame.get("target")));
    }

    /**
     * The frame without {@code token} and with the bound sender, canonical type and target. Most frames
     * already read so (a client names itself, a lower-case type, a trimmed target): those are passed on
     * as they are, since copying every frame's members to change nothing was a measurable part of the
     * chat path. Replacing a member keeps its position, so an unchanged frame equals the copy.
     */
    static JsonObject normalised(JsonObject frame, String name, String type, String target,
                                 String sentSender, String sentType, String sentTarget) {
        if (name.equals(sentSender) && type.equals(sentType) && target.equals(sentTarget) && !frame.containsKey("token")) {
            return frame;
        }
        JsonObjectBuilder normalised = Jsons.PROVIDER.createObjectBuilder(frame);
        normalised.remove("token");
        normalised.add("sender", name).add("type", type).add("target", target);
        return normalised.build();
    }
}
