package org.switchboard.redsyn.inbox;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.message.DeliveryState;
import org.switchboard.redsyn.message.EnvelopeRenderer;
import org.switchboard.redsyn.message.MessageEntity;
import org.switchboard.redsyn.message.MessageSideKeys;
import org.switchboard.redsyn.message.MessageQueued;
import org.switchboard.redsyn.message.Notices;
import org.switchboard.redsyn.message.StoredEnvelope;

/**
 * The queue of each agent: takes lease messages (conditional updates, so two takers never get the
 * same message), acks end them, and the sweep requeues expired leases, abandons messages taken too
 * often and expires those whose TTL ran out, telling their senders.
 */
@ApplicationScoped
@Transactional
public class InboxService {

    /** Undoes one lease (see {@link #giveBack}); rare, so a plain JPQL update. */
    private static final String GIVE_BACK = "UPDATE MessageEntity m SET m.state = :queued, m.attempts = m.attempts - 1, m.takenBy = NULL, "
            + "m.deadline = m.expiresAt "
            + "WHERE m.seq IN :seqs AND m.state = :taken AND m.leaseUntil = :until AND m.takenBy = :node";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    OrganisationService organisations;

    @Inject
    RedsynConfig config;

    @Inject
    Event<MessageQueued> queued;

    @Inject
    SealedReservations sealed;

    /** Whether the give-back statement has been parsed yet (see {@link #take}). */
    private volatile boolean giveBackParsed;

    /**
     * Waiting messages per agent address (operator view): {@code [queued, taken]}, sorted by address;
     * agents with nothing waiting are left out.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public java.util.SortedMap<String, long[]> waitingByAgent() {
        java.util.SortedMap<String, long[]> out = new java.util.TreeMap<>();
        for (Object row : em.createQuery("SELECT a.address, m.state, COUNT(m) FROM MessageEntity m, AgentEntity a "
                + "WHERE m.toAgentId = a.id AND m.waiting = 1 GROUP BY a.address, m.state").getResultList()) {
            Object[] r = (Object[]) row;
            long[] counts = out.computeIfAbsent((String) r[0], a -> new long[2]);
            counts[((Number) r[1]).intValue() == DeliveryState.QUEUED ? 0 : 1] += ((Number) r[2]).longValue();
        }
        return out;
    }

    /** A message a take chose, as read before its lease: leased, it is delivered as this with one more attempt. */
    public record Chosen(long seq, StoredEnvelope envelope) {
    }

    /**
     * What a take leases: waiting messages the lease rules pick (in order per session, up to the configured
     * number of items), in seq order, each read as it will be delivered. Only reads; {@link GroupedLeases}
     * leases them.
     */
    public List<Chosen> choose(long agentId, String node, String replyTo, long now) {
        if (!giveBackParsed) {
            // parsed in the first take's transaction (outside one, Payara's cleanup of the non-transactional
            // entity manager broke the sweeper's thread), so a mistake in this rarely run update shows at once
            em.createQuery(GIVE_BACK);
            giveBackParsed = true;
        }
        List<LeaseRules.Candidate> candidates = new ArrayList<>();
        List<?> rows = em.createNamedQuery("Message.inboxCandidates").setParameter("agent", agentId)
                .getResultList(); // at most MessageEntity.INBOX_CANDIDATES
        for (Object row : rows) {
            Object[] r = (Object[]) row;
            candidates.add(new LeaseRules.Candidate(String.valueOf(r[0]), ((Number) r[2]).intValue(), ((Number) r[3]).longValue(),
                    ((Number) r[4]).intValue(), ((Number) r[5]).longValue(), (String) r[6], (String) r[7]));
        }
        sealed.dropReservedForOthers(agentId, node, candidates);
        List<String> seqs = LeaseRules.choose(candidates, now, config.maxAttempts(), config.maxItems(), replyTo);
        if (seqs.isEmpty()) {
            return List.of();
        }
        List<Chosen> chosen = new ArrayList<>(seqs.size());
        // a projection of what is rendered: no entities to build and track
        for (Object row : em.createNamedQuery("Message.chosenBySeqs").setParameter("seqs", seqs.stream().map(Long::valueOf).toList())
                .getResultList()) {
            Object[] r = (Object[]) row;
            chosen.add(new Chosen(((Number) r[r.length - 1]).longValue(), StoredEnvelope.fromRow(r))); // the seq follows the envelope's columns
        }
        return chosen;
    }

    /**
     * Gives back a lease its poll could not deliver (the client was gone): the messages are queued
     * again at once and the take does not count as an attempt. Only this very lease is undone (same
     * expiry, same node, still taken), so a message acked or taken again meanwhile is left alone.
     */
    public void giveBack(Taken taken) {
        if (taken.isEmpty()) {
            return;
        }
        int changed = em.createQuery(GIVE_BACK).setParameter("queued", DeliveryState.QUEUED).setParameter("taken", DeliveryState.TAKEN)
                .setParameter("seqs", taken.seqs()).setParameter("until", taken.leaseUntil()).setParameter("node", taken.node())
                .executeUpdate();
        if (changed > 0) {
            queued.fire(new MessageQueued(taken.agentId())); // after the commit, another poll of the agent takes them
        }
    }

    /** Lists what waits (queued or leased) without taking it. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<JsonObject> peek(long agentId, String replyTo) {
        List<JsonObject> items = new ArrayList<>();
        for (MessageEntity m : em.createNamedQuery("Message.waiting", MessageEntity.class).setParameter("agent", agentId)
                .setMaxResults(config.maxItems()).getResultList()) {
            if (replyTo == null || replyTo.equals(m.getReplyTo())) {
                items.add(Jsons.PROVIDER.createObjectBuilder(EnvelopeRenderer.delivered(m)).add("state", DeliveryState.name(m.getState())).build());
            }
        }
        return items;
    }

    /**
     * Confirms taken messages by reading what the ids name, then ending each message that may be ended (their
     * files are deleted, since they are now delivered): every case, in its own transaction ({@link GroupedAcks}
     * comes here when its one statement changed nothing).
     */
    public JsonObject ackRead(AgentInfo agent, List<String> ids, long now) {
        JsonArrayBuilder acked = Jsons.PROVIDER.createArrayBuilder();
        JsonArrayBuilder notAcked = Jsons.PROVIDER.createArrayBuilder();
        Set<String> seen = new HashSet<>();
        // Looked up by their unique id alone (an agent condition made H2 walk all of the agent's
        // messages instead of using that index); another agent's message is simply not found.
        List<AckRow> found = ids.isEmpty() ? new ArrayList<>() : ownedBy(agent, "Message.forAck", ids);
        Set<String> foundIds = new HashSet<>();
        found.forEach(m -> foundIds.add(m.messageId()));
        List<String> rest = ids.stream().filter(id -> !foundIds.contains(id)).distinct().toList();
        if (!rest.isEmpty()) { // topic event copies are acked by the publisher's id
            found.addAll(ownedBy(agent, "Message.forAckEvents", rest));
        }
        for (AckRow m : found) {
            seen.add(m.wireId());
            LeaseRules.AckOutcome outcome = LeaseRules.onAck(m.state(), m.attempts());
            boolean ok = switch (outcome) {
                case ALREADY_DONE -> true;
                case REFUSE -> false;
                case CONFIRM -> em.createNamedQuery("Message.setState").setParameter("seq", m.seq()).setParameter("from", m.state())
                        .setParameter("to", DeliveryState.DONE).setParameter("now", now).executeUpdate() == 1;
            };
            if (ok && outcome == LeaseRules.AckOutcome.CONFIRM && m.hasFiles()) {
                em.createNamedQuery("File.delete").setParameter("id", m.messageId()).executeUpdate();
            }
            (ok ? acked : notAcked).add(m.wireId());
        }
        for (String id : ids) {
            if (!seen.contains(id)) {
                notAcked.add(id);
            }
        }
        return Jsons.PROVIDER.createObjectBuilder().add("acked", acked).add("not_acked", notAcked).build();
    }

    /** What an ack reads of a message ({@link MessageEntity#ACK_COLUMNS}). */
    private record AckRow(long seq, String messageId, String eventId, long toAgentId, int state, int attempts, boolean hasFiles) {

        static AckRow of(Object[] r) {
            return new AckRow(((Number) r[0]).longValue(), (String) r[1], (String) r[2], ((Number) r[3]).longValue(),
                    ((Number) r[4]).intValue(), ((Number) r[5]).intValue(), r[6] != null);
        }

        String wireId() {
            return eventId != null ? eventId : messageId;
        }
    }

    /** The messages a lookup by ids finds that are addressed to {@code agent}. */
    private List<AckRow> ownedBy(AgentInfo agent, String query, List<String> ids) {
        List<AckRow> owned = new ArrayList<>();
        for (Object row : em.createNamedQuery(query).setParameter("ids", ids).getResultList()) {
            AckRow m = AckRow.of((Object[]) row);
            if (m.toAgentId() == agent.id()) {
                owned.add(m);
            }
        }
        return owned;
    }

    /**
     * One sweep batch: expired leases go back to the queue (or are abandoned after the last attempt),
     * queued messages past their TTL expire; senders get an error reply. Returns how many rows it handled.
     */
    public int sweep(long now) {
        Set<Long> wake = new HashSet<>();
        int handled = 0;
        for (MessageEntity m : em.createNamedQuery("Message.leaseExpired", MessageEntity.class)
                .setParameter("taken", DeliveryState.TAKEN).setParameter("now", now).getResultList()) { // at most MessageEntity.SWEEP_BATCH
            handled++;
            String agent = Notices.agentPath(m.getToAddress());
            if (LeaseRules.onLeaseExpired(m.getAttempts(), config.maxAttempts()) == LeaseRules.Expiry.ABANDON) {
                if (endLease(m, DeliveryState.ABANDONED, now)) {
                    tell(m, Notices.abandoned(agent, m.getAttempts()), now, wake);
                }
            } else if (m.getExpiresAt() <= now) {
                if (endLease(m, DeliveryState.EXPIRED, now)) {
                    tell(m, Notices.expired(agent, m.getAttempts()), now, wake);
                }
            } else if (em.createNamedQuery("Message.requeueLease").setParameter("queued", DeliveryState.QUEUED).setParameter("now", now)
                    .setParameter("seq", m.getSeq()).setParameter("taken", DeliveryState.TAKEN).executeUpdate() == 1) {
                wake.add(m.getToAgentId());
            }
        }
        for (MessageEntity m : em.createNamedQuery("Message.ttlExpired", MessageEntity.class)
                .setParameter("queued", DeliveryState.QUEUED).setParameter("now", now).getResultList()) { // at most MessageEntity.SWEEP_BATCH
            handled++;
            int changed = em.createNamedQuery("Message.expire").setParameter("to", DeliveryState.EXPIRED).setParameter("now", now)
                    .setParameter("seq", m.getSeq()).setParameter("queued", DeliveryState.QUEUED).executeUpdate();
            if (changed == 1) {
                tell(m, Notices.expired(Notices.agentPath(m.getToAddress()), m.getAttempts()), now, wake);
            }
        }
        wake.forEach(agentId -> queued.fire(new MessageQueued(agentId)));
        return handled;
    }

    private boolean endLease(MessageEntity m, int to, long now) {
        return em.createNamedQuery("Message.endLease").setParameter("to", to).setParameter("now", now)
                .setParameter("seq", m.getSeq()).setParameter("taken", DeliveryState.TAKEN).executeUpdate() == 1;
    }

    private void tell(MessageEntity m, String text, long now, Set<Long> wake) {
        if (m.getFilesBytes() != null) {
            em.createNamedQuery("File.delete").setParameter("id", m.getMessageId()).executeUpdate();
        }
        if (!Notices.deserved(m)) {
            return;
        }
        long ttl = organisations.planOf(m.getFromOrg()).capTtl(null, config.defaultTtlSeconds());
        MessageSideKeys.persist(em, Notices.errorReply(m, text, now, ttl));
        wake.add(m.getFromAgentId());
    }
}
