package org.switchboard.synapse.capability;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.synapse.idempotency.CommitFailedException;
import org.switchboard.synapse.idempotency.HubReply;
import org.switchboard.synapse.idempotency.Mutation;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * Capability cards (synapse-core §11): {@code advertise} normalisation and checks, live cards
 * (replaced on advertise, dropped on disconnect, 300 s without refresh) and persistent
 * registrations (survive disconnect, 24 h without refresh), and the {@code manifest_snapshot}.
 * Advertise is not idempotency-covered. Live cards are not journalled (they die with their
 * connection); a persistent registration is journalled as {@value #REGISTRATION_EVENT} before it is
 * applied, so it survives a restart with its original refresh time [DESIGN].
 *
 * <p>Threading: all public methods are {@code synchronized} on the registry; advertise is rare
 * and every operation is a few map updates.
 */
public final class CapabilityRegistry {

    /** Seconds a live card lives without refresh. */
    public static final double LIVE_TTL_SECONDS = 300;
    /** Seconds a persistent registration lives without refresh. */
    public static final double PERSISTENT_TTL_SECONDS = 24 * 3600;
    /** Journal kind of a persistent registration (payload: agent, advertised_by, dispatchable, card). */
    public static final String REGISTRATION_EVENT = "capability_registration";
    /** Refusal of a persistent registration from a name without a project. */
    public static final String PERSIST_NEEDS_SEAT =
            "Persistent capability registration requires a project-scoped seat identity (<project>/<seat>).";

    /**
     * One registered card.
     *
     * @param card         projected card without {@code persistent}/{@code dispatchable}
     * @param advertisedAt last refresh
     * @param advertisedBy the connection name that sent it (the agent or its sidecar)
     * @param dispatchable the registration's dispatchable flag
     */
    private record Entry(JsonObject card, double advertisedAt, String advertisedBy, boolean dispatchable) {
    }

    private final CardVerifier verifier;
    private final double liveTtl;
    private final double persistentTtl;
    private final Map<String, Entry> live = new HashMap<>();
    private final Map<String, Entry> persistent = new HashMap<>();

    /** A registry with the spec lifetimes. */
    public CapabilityRegistry(CardVerifier verifier) {
        this(verifier, LIVE_TTL_SECONDS, PERSISTENT_TTL_SECONDS);
    }

    /** A registry with explicit lifetimes (seconds). */
    public CapabilityRegistry(CardVerifier verifier, double liveTtl, double persistentTtl) {
        this.verifier = verifier;
        this.liveTtl = liveTtl;
        this.persistentTtl = persistentTtl;
    }

    /**
     * Handles {@code advertise} from {@code sender}; success broadcasts
     * {@code capability_advertised} with {@code agent} and {@code card}, refusals are private
     * {@code error} frames.
     */
    public CapabilityVerdict advertise(AdvertiseRequest request, String sender, double now) {
        return advertise(request, sender, now, MutationCommit.NONE);
    }

    /**
     * {@link #advertise(AdvertiseRequest, String, double)} that journals a persistent registration through
     * {@code commit} before applying it; throws {@link CommitFailedException} (nothing applied) when
     * the append fails.
     */
    public synchronized CapabilityVerdict advertise(AdvertiseRequest request, String sender, double now, MutationCommit commit) {
        if (request.malformed() != null) {
            return refused(request.malformed());
        }
        boolean persist = request.persist();
        boolean dispatchable = request.dispatchable();
        String agent = request.agent() == null ? sender : request.agent();
        if (!agent.equals(sender) && !sender.equals(agent + "-rx") && !sender.equals(agent + "-pane-rx")) {
            return refused("Capability card for '" + agent + "' cannot be advertised by " + sender + ".");
        }
        if (persist && !projectScoped(agent)) {
            return refused(PERSIST_NEEDS_SEAT);
        }
        JsonObjectBuilder card = PROVIDER.createObjectBuilder()
                .add("agent", agent)
                .add("description", request.description())
                .add("skills", request.skills())
                .add("task_classes", request.taskClasses())
                .add("model", request.model())
                .add("project", project(agent))
                .add("manifest_digest", request.manifestDigest())
                .add("contracts", request.contracts())
                .add("meta", request.meta())
                .add("signature", request.signature());
        JsonObject unverified = card.build();
        JsonObject projected = PROVIDER.createObjectBuilder(unverified)
                .add("verification", verifier.verify(unverified, now))
                .add("advertised_at", now)
                .build();
        Entry entry = new Entry(projected, now, sender, dispatchable);
        JsonObject shown = persist ? withRegistration(projected, dispatchable) : projected;
        String sentence = "Capability advertised by " + agent;
        List<JournalEvent.Draft> events = persist ? List.of(new JournalEvent.Draft(REGISTRATION_EVENT,
                PROVIDER.createObjectBuilder().add("agent", agent).add("advertised_by", sender)
                        .add("dispatchable", dispatchable).add("card", projected).build())) : List.of();
        Mutation mutation = new Mutation(events, List.of(HubReply.toAll(
                "capability_advertised", sentence, PROVIDER.createObjectBuilder().add("agent", agent).add("card", shown).build())));
        if (persist) {
            try {
                commit.commit(mutation);
            } catch (CommitFailedException e) {
                throw e;
            } catch (Exception e) {
                throw new CommitFailedException(e);
            }
        }
        live.put(agent, entry);
        if (persist) {
            persistent.put(agent, entry);
        }
        return new CapabilityVerdict(true, sentence, shown, mutation);
    }

    /** Replays a {@value #REGISTRATION_EVENT} journal event (other kinds are ignored). */
    public synchronized void apply(JournalEvent event) {
        if (!REGISTRATION_EVENT.equals(event.kind())) {
            return;
        }
        JsonObject p = event.payload();
        if (!(p.get("agent") instanceof JsonString agent) || !(p.get("card") instanceof JsonObject card)
                || !(card.get("advertised_at") instanceof JsonNumber at)) {
            return;
        }
        String by = p.get("advertised_by") instanceof JsonString s ? s.getString() : agent.getString();
        boolean dispatchable = p.get("dispatchable") != JsonValue.FALSE;
        persistent.put(agent.getString(), new Entry(card, at.doubleValue(), by, dispatchable));
    }

    /** Drops live cards whose sending connection is no longer bound (the sweep's disconnect check). */
    public synchronized void retainLiveCardsOf(Set<String> boundNames) {
        live.values().removeIf(e -> !boundNames.contains(e.advertisedBy()));
    }

    /** Drops the live cards a disconnected connection advertised (persistent registrations stay). */
    public synchronized void disconnected(String name) {
        live.values().removeIf(e -> e.advertisedBy().equals(name));
    }

    /** Drops cards not refreshed in time; returns the agents whose live card or registration expired. */
    public synchronized List<String> expire(double now) {
        TreeSet<String> gone = new TreeSet<>();
        dropOlderThan(live, liveTtl, now, gone);
        dropOlderThan(persistent, persistentTtl, now, gone);
        return new ArrayList<>(gone);
    }

    private static void dropOlderThan(Map<String, Entry> cards, double ttl, double now, TreeSet<String> gone) {
        var it = cards.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (now - e.getValue().advertisedAt() >= ttl) {
                gone.add(e.getKey());
                it.remove();
            }
        }
    }

    /**
     * The {@code manifest} of {@code manifest_snapshot}: one card per agent sorted by agent; a
     * persistent registration adds {@code persistent:true} and its {@code dispatchable} to the
     * fresher of its own card and the live card. Expired cards are left out.
     */
    public synchronized JsonArray manifest(double now) {
        TreeSet<String> agents = new TreeSet<>(live.keySet());
        agents.addAll(persistent.keySet());
        JsonArrayBuilder out = PROVIDER.createArrayBuilder();
        for (String agent : agents) {
            Entry l = live.get(agent);
            if (l != null && now - l.advertisedAt() >= liveTtl) {
                l = null;
            }
            Entry p = persistent.get(agent);
            if (p != null && now - p.advertisedAt() >= persistentTtl) {
                p = null;
            }
            if (p != null) {
                Entry fresher = l != null && l.advertisedAt() > p.advertisedAt() ? l : p;
                out.add(withRegistration(fresher.card(), p.dispatchable()));
            } else if (l != null) {
                out.add(l.card());
            }
        }
        return out.build();
    }

    /** Whether the agent has a persistent registration (dispatch decisions). */
    public synchronized boolean persistentlyRegistered(String agent) {
        return persistent.containsKey(agent);
    }

    private static JsonObject withRegistration(JsonObject card, boolean dispatchable) {
        return PROVIDER.createObjectBuilder(card).add("persistent", true).add("dispatchable", dispatchable).build();
    }

    /** {@code <project>/<seat>} with both parts non-empty. */
    static boolean projectScoped(String identity) {
        int slash = identity.indexOf('/');
        return slash > 0 && slash < identity.length() - 1;
    }

    /** Text before the first {@code /}, or "" when there is none. */
    static String project(String identity) {
        int slash = identity.indexOf('/');
        return slash < 0 ? "" : identity.substring(0, slash);
    }

    private static CapabilityVerdict refused(String sentence) {
        return new CapabilityVerdict(false, sentence, null, Mutation.refusal(List.of(),
                List.of(HubReply.toRequester("error", sentence, JsonValue.EMPTY_JSON_OBJECT))));
    }

    /**
     * The replayed state as a snapshot part (issue 20): the persistent registrations, all {@link #apply}
     * builds (live cards belong to connections, which a restart does not keep).
     */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("capabilities", () -> {
            synchronized (CapabilityRegistry.this) {
                JsonArrayBuilder all = PROVIDER.createArrayBuilder();
                new java.util.TreeMap<>(persistent).forEach((agent, e) -> all.add(PROVIDER.createObjectBuilder()
                        .add("agent", agent).add("card", e.card()).add("advertised_at", e.advertisedAt())
                        .add("advertised_by", e.advertisedBy()).add("dispatchable", e.dispatchable())));
                return PROVIDER.createObjectBuilder().add("persistent", all).build().toString();
            }
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            synchronized (CapabilityRegistry.this) {
                try {
                    SnapshotText.eachObject(part, "persistent", e -> persistent.put(e.getString("agent"),
                            new Entry(e.getJsonObject("card"), e.getJsonNumber("advertised_at").doubleValue(),
                                    e.getString("advertised_by"), e.getBoolean("dispatchable"))));
                } catch (ClassCastException | NullPointerException e) {
                    throw new IllegalArgumentException("capabilities snapshot part: " + e, e);
                }
            }
        });
    }
}
