package org.switchboard.synapse.coordination;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArrayBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.claims.ClaimBook;

/**
 * The dark-seat rule (synapse-core §14): an identity that owns live work (unexpired claims, or
 * non-terminal board tasks it is the suggested owner of) but has no live waiter is dark; after
 * 30 s of continuous darkness one {@code dark_seat_alert} is broadcast per episode. Advisory,
 * not journalled. Call {@link #poll} every 5 s from one scheduler thread (not thread-safe).
 */
public final class DarkSeatWatch {

    /** Default grace before alerting. */
    public static final double DEFAULT_GRACE_SECONDS = 30;

    private final double graceSeconds;
    private final Map<String, Double> darkSince = new HashMap<>();
    private final Set<String> alerted = new HashSet<>();

    /** @param graceSeconds continuous darkness needed before an alert (30 s) */
    public DarkSeatWatch(double graceSeconds) {
        this.graceSeconds = graceSeconds;
    }

    /**
     * One poll.
     *
     * @param claimsByOwner    live claim task ids per owner ({@link ClaimBook#liveTasksByOwner})
     * @param tasksByOwner     non-terminal board task ids per non-empty suggested owner
     * @param hasLiveWaiter    whether an identity has a live waiter (§4.8)
     * @param now              hub clock
     * @return alerts to broadcast now (at most one per identity per episode), sorted by identity
     */
    public List<HubReply> poll(Map<String, List<String>> claimsByOwner, Map<String, List<String>> tasksByOwner,
                               Predicate<String> hasLiveWaiter, double now) {
        Set<String> owners = new TreeSet<>(claimsByOwner.keySet());
        owners.addAll(tasksByOwner.keySet());
        Set<String> darkNow = new HashSet<>();
        List<HubReply> alerts = new ArrayList<>();
        for (String identity : owners) {
            List<String> claims = claimsByOwner.getOrDefault(identity, List.of());
            List<String> tasks = tasksByOwner.getOrDefault(identity, List.of());
            if ((claims.isEmpty() && tasks.isEmpty()) || hasLiveWaiter.test(identity)) {
                continue;
            }
            darkNow.add(identity);
            double since = darkSince.computeIfAbsent(identity, k -> now);
            if (now - since >= graceSeconds && alerted.add(identity)) {
                alerts.add(alert(identity, claims, tasks, now - since));
            }
        }
        // An identity that is no longer dark ends its episode; a relapse starts a new one.
        darkSince.keySet().retainAll(darkNow);
        alerted.retainAll(darkNow);
        return alerts;
    }

    private static HubReply alert(String identity, List<String> claims, List<String> tasks, double missingFor) {
        JsonArrayBuilder c = PROVIDER.createArrayBuilder();
        new TreeSet<>(claims).forEach(c::add);
        JsonArrayBuilder t = PROVIDER.createArrayBuilder();
        new TreeSet<>(tasks).forEach(t::add);
        return HubReply.toAll("dark_seat_alert",
                "Dark seat: " + identity + " owns live work without a fresh -rx waiter.",
                PROVIDER.createObjectBuilder()
                        .add("identity", identity)
                        .add("claims", c)
                        .add("tasks", t)
                        .add("missing_for_seconds", missingFor)
                        .add("remedy", "arm a permanent waiter: synapse arm --name=" + identity + " --for=" + identity
                                + " --directed-only")
                        .build());
    }
}
