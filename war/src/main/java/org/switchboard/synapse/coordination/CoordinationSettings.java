package org.switchboard.synapse.coordination;

import org.switchboard.synapse.board.Blackboard;
import org.switchboard.synapse.capability.CapabilityRegistry;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.resource.ResourceOffers;
import org.switchboard.synapse.claims.ClaimBook;

/**
 * Operator limits of SYNAPSE coordination (claims, board, resources, capability cards, dark
 * seats, idempotency), as read from {@code SynapseConfig}; {@link #defaults()} are the spec values.
 *
 * @param claims                   claim quota, declared-path cap and lease bounds
 * @param board                    progress-note retention and snapshot task cap
 * @param maxOffersPerAgent        live resource offers per agent (64)
 * @param offerTtlSeconds          seconds an offer lives after its last refresh (300)
 * @param liveCardTtlSeconds       seconds a live capability card lives without refresh (300)
 * @param persistentCardTtlSeconds seconds a persistent registration lives without refresh (86 400)
 * @param cardTrustFile            path of the capability-card trust bundle, {@code ""} = none
 * @param cardSkewSeconds          clock skew allowed around a signed card's validity window (300)
 * @param darkSeatGraceSeconds     continuous darkness before a {@code dark_seat_alert} (30)
 * @param idempotencyCacheSize     recent operation records kept in the ledger's LRU (1024)
 */
public record CoordinationSettings(ClaimBook.Limits claims, Blackboard.Limits board, int maxOffersPerAgent,
                                   double offerTtlSeconds, double liveCardTtlSeconds, double persistentCardTtlSeconds,
                                   String cardTrustFile, double cardSkewSeconds, double darkSeatGraceSeconds,
                                   int idempotencyCacheSize) {

    /** Validates what the rule classes cannot check themselves. */
    public CoordinationSettings {
        if (maxOffersPerAgent < 1 || !(offerTtlSeconds > 0) || !(liveCardTtlSeconds > 0) || !(persistentCardTtlSeconds > 0)
                || !(cardSkewSeconds >= 0) || !(darkSeatGraceSeconds >= 0) || idempotencyCacheSize < 1
                || board.maxNotes() < 1 || board.maxNotesPerAuthor() < 1 || board.maxNotesPerTask() < 1 || board.taskCap() < 0) {
            throw new IllegalArgumentException("invalid coordination settings: " + this);
        }
        cardTrustFile = cardTrustFile == null ? "" : cardTrustFile.strip();
    }

    /** The spec defaults, no card trust bundle. */
    public static CoordinationSettings defaults() {
        return new CoordinationSettings(ClaimBook.Limits.defaults(), Blackboard.Limits.defaults(),
                ResourceOffers.DEFAULT_MAX_PER_AGENT, ResourceOffers.DEFAULT_TTL_SECONDS,
                CapabilityRegistry.LIVE_TTL_SECONDS, CapabilityRegistry.PERSISTENT_TTL_SECONDS, "", 300,
                DarkSeatWatch.DEFAULT_GRACE_SECONDS, IdempotencyLedger.DEFAULT_CACHE_SIZE);
    }
}
