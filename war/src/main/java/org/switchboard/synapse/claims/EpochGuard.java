package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;

/**
 * A request's optional {@code epoch} guard (synapse-core §9): absent passes; otherwise the value must
 * be the integer epoch of the lease.
 *
 * @param present whether {@code epoch} was sent (not missing, not null)
 * @param value   the sent epoch as an integer, or null when it is not one (then it never matches)
 */
public record EpochGuard(boolean present, Long value) {

    /** No guard. */
    public static final EpochGuard NONE = new EpochGuard(false, null);

    /** Reads {@code epoch} from a frame. */
    public static EpochGuard from(JsonObject frame) {
        return FrameFields.absent(frame, "epoch") ? NONE : new EpochGuard(true, FrameFields.integer(frame.get("epoch")));
    }

    /** Whether a lease at {@code current} passes. */
    public boolean matches(long current) {
        return !present || (value != null && value == current);
    }
}
