package org.switchboard.synapse.wire;

import org.switchboard.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.function.DoubleSupplier;

/** Builds hub-originated frames: base fields (§3.1) stamped with the hub clock and {@code hub_id}. */
public final class HubFrames {

    private final String hubId;
    private final DoubleSupplier clock;

    /** Frames for the given hub id; {@code clock} returns epoch seconds. */
    public HubFrames(String hubId, DoubleSupplier clock) {
        this.hubId = hubId;
        this.clock = clock;
    }

    /** Wall clock in epoch seconds (fractional). */
    public static double wallClock() {
        return System.currentTimeMillis() / 1000.0;
    }

    public String hubId() {
        return hubId;
    }

    public double now() {
        return clock.getAsDouble();
    }

    /** A hub frame skeleton; callers add verb-specific fields. */
    public JsonObjectBuilder hub(String type, String target, String payload) {
        return Jsons.PROVIDER.createObjectBuilder()
                .add("sender", HubStrings.HUB_SENDER)
                .add("target", target)
                .add("type", type)
                .add("payload", payload)
                .add("timestamp", now())
                .add("hub_id", hubId);
    }

    /**
     * The same skeleton written as text with the given {@code timestamp}, for frames built on a hot
     * path: callers add their fields and {@link org.switchboard.json.JsonText#build() build} it.
     */
    public org.switchboard.json.JsonText hubText(String type, String target, String payload, double timestamp, int capacity) {
        return org.switchboard.json.JsonText.object(capacity)
                .add("sender", HubStrings.HUB_SENDER)
                .add("target", target)
                .add("type", type)
                .add("payload", payload)
                .add("timestamp", timestamp)
                .add("hub_id", hubId);
    }

    /** A private {@code error} frame. */
    public JsonObjectBuilder error(String target, String payload) {
        return hub("error", target, payload);
    }

    /** Encoded {@code error} frame. */
    public String errorText(String target, String payload) {
        return error(target, payload).build().toString();
    }

    /** Encoded {@code name_conflict} frame. */
    public String nameConflict(String target, String payload) {
        return hub("name_conflict", target, payload).build().toString();
    }

    /** Encodes a frame once; the String is shared by every recipient. */
    public static String encode(JsonObject frame) {
        return frame.toString();
    }
}
