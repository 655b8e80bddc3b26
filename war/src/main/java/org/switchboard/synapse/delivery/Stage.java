package org.switchboard.synapse.delivery;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The stages of a delivery request and the transition table of synapse-advanced §2.9. */
public enum Stage {
    ACCEPTED("accepted"), QUEUED("queued"), BOUNDARY_DELIVERED("boundary_delivered"), ACKNOWLEDGED("acknowledged"),
    COMPLETED("completed"), FAILED("failed"), REJECTED("rejected"), EXPIRED("expired"), CANCELLED("cancelled"),
    SUPERSEDED("superseded");

    /** Who caused a change: the recipient's live incarnation, the hub itself, or the sender (cancel requests only). */
    public enum Source { RECIPIENT, HUB, SENDER;

        /** Wire name ({@code recipient}, {@code hub}, {@code sender}). */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final Map<Stage, Set<Stage>> NEXT = Map.of(
            ACCEPTED, EnumSet.of(QUEUED, REJECTED, EXPIRED),
            QUEUED, EnumSet.of(BOUNDARY_DELIVERED, REJECTED, EXPIRED, CANCELLED, SUPERSEDED),
            BOUNDARY_DELIVERED, EnumSet.of(ACKNOWLEDGED, REJECTED, FAILED, EXPIRED, CANCELLED, SUPERSEDED),
            ACKNOWLEDGED, EnumSet.of(COMPLETED, FAILED, REJECTED, EXPIRED, CANCELLED, SUPERSEDED));

    private static final Map<Source, Set<Stage>> CAUSES = Map.of(
            Source.RECIPIENT, EnumSet.of(BOUNDARY_DELIVERED, ACKNOWLEDGED, COMPLETED, FAILED, CANCELLED, SUPERSEDED, REJECTED),
            Source.HUB, EnumSet.of(EXPIRED, SUPERSEDED, REJECTED),
            Source.SENDER, EnumSet.noneOf(Stage.class));

    private final String wire;

    Stage(String wire) {
        this.wire = wire;
    }

    /** The stage's wire name. */
    public String wire() {
        return wire;
    }

    /** True for completed, failed, rejected, expired, cancelled and superseded: nothing follows them. */
    public boolean terminal() {
        return !NEXT.containsKey(this);
    }

    /** True for the stages that hold a slot and are swept: queued, boundary_delivered, acknowledged. */
    public boolean open() {
        return this == QUEUED || this == BOUNDARY_DELIVERED || this == ACKNOWLEDGED;
    }

    /** True when the table allows {@code next} after this stage and {@code source} may cause it. */
    public boolean allows(Stage next, Source source) {
        return NEXT.getOrDefault(this, Set.of()).contains(next) && CAUSES.get(source).contains(next);
    }

    /** The stage with this wire name, or null. */
    public static Stage of(String wire) {
        for (Stage stage : values()) {
            if (stage.wire.equals(wire)) {
                return stage;
            }
        }
        return null;
    }
}
