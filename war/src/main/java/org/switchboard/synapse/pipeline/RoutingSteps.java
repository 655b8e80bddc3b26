package org.switchboard.synapse.pipeline;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Locale;
import java.util.Map;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.delivery.SessionRegistration;
import org.switchboard.synapse.ratelimit.FrameRateLimits;
import org.switchboard.synapse.wire.FrameDecoder;
import org.switchboard.synapse.wire.HubStrings;

/** The pipeline's opening steps (§1.4 steps 1–3): decode, per-host rate, routing fields. */
public final class RoutingSteps {

    private RoutingSteps() {
    }

    /** Step 1: bounded JSON decode; malformed text or a non-object gets a private {@code error}. */
    public static final class Decode implements PipelineStep {

        private final SynapseContext ctx;
        private final FrameDecoder decoder = new FrameDecoder();

        /** Decodes with the core nesting and number bounds. */
        public Decode(SynapseContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            JsonValue value;
            try {
                value = decoder.decode(f.text);
            } catch (FrameDecoder.MalformedJsonException e) {
                f.connection.send(ctx.frames().errorText("all", HubStrings.MALFORMED_JSON));
                return false;
            }
            if (!(value instanceof JsonObject object)) {
                f.connection.send(ctx.frames().errorText("all", HubStrings.NOT_AN_OBJECT));
                return false;
            }
            f.frame = object;
            return true;
        }
    }

    /** Step 2: the per-remote-host rate limit, on every frame (heartbeats included). */
    public static final class HostRateLimit implements PipelineStep {

        private final FrameRateLimits limits;

        /** Checks against {@code limits}' host gate. */
        public HostRateLimit(FrameRateLimits limits) {
            this.limits = limits;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            return limits.admitHost(f.connection);
        }
    }

    /**
     * Step 3: routing fields that are present must be strings; then the routing strings are
     * normalised (sender trimmed, target defaulted to {@code all}, type lower-cased, defaulted to
     * {@code chat} and de-aliased), and delivery-registration fields are split off (§2.2 step 1: the
     * session token reaches nothing but the delivery binding).
     */
    public static final class RoutingFields implements PipelineStep {

        private static final String[] ROUTING_FIELDS = {"sender", "target", "type", "channel"};
        /** Resource offers arrive under three names and reach one handler as {@code resource}. */
        private static final Map<String, String> ALIASES = Map.of("resource_offer", "resource", "offer_resource", "resource");

        private final SynapseContext ctx;

        /** Refusals are built by {@code ctx}'s frames. */
        public RoutingFields(SynapseContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            JsonObject frame = f.frame;
            for (String field : ROUTING_FIELDS) {
                JsonValue v = frame.get(field);
                if (v != null && v != JsonValue.NULL && !(v instanceof JsonString)) {
                    f.connection.send(ctx.frames().errorText("all", HubStrings.fieldMustBeString(field)));
                    return false;
                }
            }
            // each read once: Parsson's getString() builds a new String on every call
            f.rawSender = stringOrNull(frame.get("sender"));
            f.rawTarget = stringOrNull(frame.get("target"));
            f.rawType = stringOrNull(frame.get("type"));
            f.sender = f.rawSender == null ? "" : f.rawSender.trim();
            String target = f.rawTarget == null ? "" : f.rawTarget.trim();
            f.target = target.isEmpty() ? "all" : target;
            String type = (f.rawType == null ? "" : f.rawType.trim()).toLowerCase(Locale.ROOT);
            type = type.isEmpty() ? "chat" : type;
            f.type = ALIASES.getOrDefault(type, type);
            if (SessionRegistration.present(frame)) {
                f.deliveryFrame = frame;
                f.frame = SessionRegistration.strip(frame);
            }
            return true;
        }
    }

    static String stringOrNull(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }
}
