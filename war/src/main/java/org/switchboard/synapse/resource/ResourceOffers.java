package org.switchboard.synapse.resource;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.Mutation;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * Resource offers (synapse-core §12): {@code resource} / {@code resource_offer} /
 * {@code offer_resource}, keyed {@code <agent>:<kind>:<name>}, refreshed by re-offering, at most
 * 64 live offers per agent, expiring 300 s after the last refresh; replay from {@code resource}
 * events.
 *
 * <p>Threading: public methods are {@code synchronized}; the journal append ({@link
 * MutationCommit}, NORMAL durability) runs inside, before the offer becomes visible.
 */
public final class ResourceOffers {

    /** Live offers per agent. */
    public static final int DEFAULT_MAX_PER_AGENT = 64;
    /** Seconds an offer lives after its last refresh. */
    public static final double DEFAULT_TTL_SECONDS = 300;
    /** Refusal when kind or name is missing. */
    public static final String NEEDS_KIND_AND_NAME = "resource offer requires kind+name";
    /** Refusal beyond the per-agent cap. */
    public static final String QUOTA_EXCEEDED = "resource offer quota exceeded";

    private final int maxPerAgent;
    private final double ttlSeconds;
    private final Map<String, ResourceOffer> offers = new LinkedHashMap<>();
    private final Map<String, Integer> perAgent = new HashMap<>();

    /** Offers with the spec limits. */
    public ResourceOffers() {
        this(DEFAULT_MAX_PER_AGENT, DEFAULT_TTL_SECONDS);
    }

    /** Offers with explicit limits. */
    public ResourceOffers(int maxPerAgent, double ttlSeconds) {
        this.maxPerAgent = maxPerAgent;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * Records or refreshes an offer; success journals {@code resource} and broadcasts
     * {@code resource_offered} with {@code agent}, {@code kind}, {@code name}, {@code key}.
     *
     * @throws CommitFailedException when the append fails (nothing recorded)
     */
    public synchronized ResourceVerdict offer(ResourceOfferRequest request, String sender, double now, MutationCommit commit) {
        expireLocked(now);
        String kind = request.kind();
        String name = request.name();
        if (kind.isEmpty() || name.isEmpty()) {
            return refused(NEEDS_KIND_AND_NAME);
        }
        ResourceOffer offer = new ResourceOffer(sender, kind, name, request.capacity(), request.meta(), now);
        if (!offers.containsKey(offer.key()) && perAgent.getOrDefault(sender, 0) >= maxPerAgent) {
            return refused(QUOTA_EXCEEDED);
        }
        String sentence = "Resource offered by " + sender;
        Mutation mutation = new Mutation(
                List.of(new JournalEvent.Draft("resource", offer.payload())),
                List.of(HubReply.toAll("resource_offered", sentence, PROVIDER.createObjectBuilder()
                        .add("agent", sender).add("kind", kind).add("name", name).add("key", offer.key()).build())));
        try {
            commit.commit(mutation);
        } catch (CommitFailedException e) {
            throw e;
        } catch (Exception e) {
            throw new CommitFailedException(e);
        }
        put(offer);
        return new ResourceVerdict(true, sentence, offer, mutation);
    }

    /** Replays a {@code resource} event (other kinds ignored); call {@link #expire} afterwards. */
    public synchronized void apply(JournalEvent event) {
        if ("resource".equals(event.kind())) {
            ResourceOffer offer = ResourceOffer.fromPayload(event.payload());
            if (offer != null) {
                put(offer);
            }
        }
    }

    /**
     * Drops offers not refreshed for the TTL and, after replay, an agent's oldest offers beyond
     * the cap as configured now; returns what was dropped.
     */
    public synchronized List<ResourceOffer> expire(double now) {
        List<ResourceOffer> dropped = expireLocked(now);
        for (Map.Entry<String, Integer> e : new ArrayList<>(perAgent.entrySet())) {
            if (e.getValue() > maxPerAgent) {
                List<ResourceOffer> mine = new ArrayList<>();
                for (ResourceOffer o : offers.values()) {
                    if (o.agent().equals(e.getKey())) {
                        mine.add(o);
                    }
                }
                mine.sort(Comparator.comparingDouble(ResourceOffer::offeredAt));
                for (ResourceOffer o : mine.subList(0, mine.size() - maxPerAgent)) {
                    remove(o);
                    dropped.add(o);
                }
            }
        }
        return dropped;
    }

    /** Live offers at {@code now}, sorted by key. */
    public synchronized List<ResourceOffer> live(double now) {
        List<ResourceOffer> out = new ArrayList<>();
        for (ResourceOffer o : offers.values()) {
            if (now - o.offeredAt() < ttlSeconds) {
                out.add(o);
            }
        }
        out.sort(Comparator.comparing(ResourceOffer::key));
        return out;
    }

    private List<ResourceOffer> expireLocked(double now) {
        List<ResourceOffer> dropped = new ArrayList<>();
        for (ResourceOffer o : new ArrayList<>(offers.values())) {
            if (now - o.offeredAt() >= ttlSeconds) {
                remove(o);
                dropped.add(o);
            }
        }
        return dropped;
    }

    private void put(ResourceOffer offer) {
        // re-insert so the map stays in refresh order
        if (offers.remove(offer.key()) == null) {
            perAgent.merge(offer.agent(), 1, Integer::sum);
        }
        offers.put(offer.key(), offer);
    }

    private void remove(ResourceOffer offer) {
        if (offers.remove(offer.key()) != null) {
            perAgent.merge(offer.agent(), -1, (a, b) -> a + b == 0 ? null : a + b);
        }
    }

    private static ResourceVerdict refused(String sentence) {
        return new ResourceVerdict(false, sentence, null, Mutation.refusal(List.of(),
                List.of(HubReply.toRequester("error", sentence, JsonValue.EMPTY_JSON_OBJECT))));
    }

    /** The replayed state as a snapshot part (issue 20): the offers in refresh order, all {@link #apply} builds. */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("resources", () -> {
            synchronized (ResourceOffers.this) {
                jakarta.json.JsonArrayBuilder all = PROVIDER.createArrayBuilder();
                offers.values().forEach(o -> all.add(o.payload()));
                return PROVIDER.createObjectBuilder().add("offers", all).build().toString();
            }
        }, text -> {
            jakarta.json.JsonObject part = SnapshotText.object(text);
            synchronized (ResourceOffers.this) {
                try {
                    SnapshotText.eachObject(part, "offers", ResourceOffer::fromPayload,
                            "resources snapshot part: an offer without agent, kind or name", offer -> put(offer));
                } catch (ClassCastException | NullPointerException e) {
                    throw new IllegalArgumentException("resources snapshot part: " + e, e);
                }
            }
        });
    }
}
