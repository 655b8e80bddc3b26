package org.switchboard.redsyn.message;

import org.switchboard.crypto.Hex;
import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.address.AddressException;
import org.switchboard.redsyn.address.AddressResolver;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.OrganisationService;
import org.switchboard.redsyn.directory.LinkCheck;
import org.switchboard.redsyn.directory.Membership;
import org.switchboard.redsyn.directory.PolicyDecision;
import org.switchboard.redsyn.directory.Tokens;
import org.switchboard.redsyn.plan.Plan;
import org.switchboard.redsyn.store.GroupedUpdates;

/**
 * Accepting a send: validates the envelope, applies the receiving agent's policy and picks the session.
 * Answers and events are stored in this transaction, and wake the receiver's parked polls after its commit;
 * a request's rows are only decided here ({@link Accepted#rows}), for {@link MessageSender} to write. Also
 * cancellation and file download.
 */
@ApplicationScoped
@Transactional
public class MessageService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    AgentService agents;

    @Inject
    OrganisationService directory;

    @Inject
    LinkCheck links;

    @Inject
    SignatureVerifier signatures;

    @Inject
    TopicPublisher topics;

    @Inject
    AcceptedMessages sealed;

    @Inject
    RedsynConfig config;

    @Inject
    Event<MessageQueued> queued;

    @Inject
    RowIds ids;

    /**
     * What accepting a send decided: the answer and, for a request, the rows still to write (committed as
     * one unit before the answer goes out) and the receiving agent to wake once they are.
     */
    public record Accepted(SendResult result, List<GroupedUpdates.Update> rows, long toAgentId) {

        /** A send already stored (or a repeat of one), with nothing left to write. */
        static Accepted stored(SendResult result) {
            return new Accepted(result, List.of(), 0);
        }
    }

    /** {@code POST /messages}, up to the writes of a request: see {@link MessageSender#send}. */
    public Accepted accept(Caller caller, JsonObject raw) {
        Plan plan = directory.planOf(senderOrg(raw));
        EnvelopeDraft d = new EnvelopeValidator(plan.maxBodyBytes(), plan.maxZipBytes()).validate(raw);
        AgentInfo from = agents.ownAgent(caller, d.from());
        Long fromSession = null;
        if (d.from().session() != null) {
            SessionEntity s = session(d.from().session(), from.id());
            if (s == null) {
                throw RedsynException.unprocessable("from: " + d.from().agentPath() + " has no session " + d.from().session());
            }
            fromSession = s.getId();
        }
        if (d.id() != null) {
            MessageEntity existing = byMessageId(d.id());
            if (existing != null) {
                if (existing.getFromPersonId() == null || existing.getFromPersonId() != caller.personId()) {
                    throw RedsynException.conflict("id " + d.id() + " is already used; choose another");
                }
                return Accepted.stored(new SendResult(200, accepted(existing, true)));
            }
        }
        String id = d.id() != null ? d.id() : Tokens.newId("m");
        String filesSha = d.zip() == null ? "" : Hex.sha256Hex(d.zip());
        SignatureVerdict verdict = signatures.check(caller, raw, d, id, filesSha);
        if (d.kind() == Kind.EVENT) {
            return Accepted.stored(new SendResult(201, topics.publish(caller, from, d, id, verdict)));
        }
        long now = System.currentTimeMillis();
        checkDailyQuota(plan, from.org(), now);
        MessageEntity m = new MessageEntity(id, d.kind(), now);
        RequestRows rows = d.kind() == Kind.REQUEST ? new RequestRows() : null;
        if (rows != null) {
            routeRequest(caller, d, from, fromSession, m, verdict, now, rows);
        } else {
            routeAnswer(caller, d, from, m, now);
        }
        m.content(m.getThread() != null ? m.getThread() : threadOf(d, id), d.replyTo(), d.ts(),
                plan.capTtl(d.ttl(), config.defaultTtlSeconds()), d.bodyJson(), d.refs().toString(), d.error(), d.encrypted());
        m.signature(verdict.signed(), verdict.deliveredSig() == null ? null : verdict.deliveredSig().toString());
        if (d.zip() != null) {
            checkFilesQuota(plan, from.org(), d.zip().length);
            m.files(d.zip().length, filesSha);
        }
        if (rows == null) {
            // an answer may close its request: its writes stay in this transaction, with the reads they depend on
            if (d.zip() != null) {
                em.persist(new FileEntity(id, from.org(), d.zip()));
            }
            MessageSideKeys.persist(em, m);
            queued.fire(new MessageQueued(m.getToAgentId()));
            return Accepted.stored(new SendResult(201, accepted(m, false)));
        }
        if (d.zip() != null) {
            rows.files(id, from.org(), d.zip());
        }
        m.assignSeq(ids.nextMessageSeq());
        rows.message(m);
        sealed.reservation(m, d.encrypted()).ifPresent(rows::add);
        return new Accepted(new SendResult(201, accepted(m, false)), rows.statements(), m.getToAgentId());
    }

    private static String threadOf(EnvelopeDraft d, String id) {
        return d.thread() != null ? d.thread() : id;
    }

    private void routeRequest(Caller caller, EnvelopeDraft d, AgentInfo from, Long fromSession, MessageEntity m,
                              SignatureVerdict verdict, long now, RequestRows rows) {
        Address to;
        try {
            to = AddressResolver.resolve(d.to(), d.from());
        } catch (AddressException e) {
            throw RedsynException.unprocessable("to: " + e.getMessage());
        }
        AgentInfo target = agents.info(to.agentPath());
        boolean crossOrg = !to.org().equals(from.org());
        if (crossOrg) {
            links.sendRefusal(from.org(), to.org(), to.agentPath(), verdict.signed()).ifPresent(reason -> {
                throw RedsynException.forbidden(reason);
            });
        }
        if (target == null) {
            throw RedsynException.notFound("no agent " + to.agentPath());
        }
        Membership member = directory.membership(to.org(), caller.personId());
        PolicyDecision.Sender sender = new PolicyDecision.Sender(target.ownerPersonId() == caller.personId(),
                member == null ? null : member.handle(), member == null ? Set.of() : member.teams(), from.org());
        PolicyDecision.refusal(target.policy(), to.agentPath(), to.org(), to.team(), sender, verdict.signed(), d.encrypted())
                .ifPresent(reason -> {
                    throw RedsynException.forbidden(reason);
                });
        String thread = threadOf(d, m.getMessageId());
        SessionRouting.SessionState named = null;
        if (to.session() != null && !to.wantsNewSession()) {
            SessionEntity s = session(to.session(), target.id());
            named = s == null ? null : new SessionRouting.SessionState(s.sid(), s.isClosed());
        }
        // a thread named after a relay-generated id is new: nothing can map it yet, so skip the lookup
        boolean newThread = d.thread() == null && d.id() == null;
        ThreadSessionEntity mapping = newThread ? null : em.find(ThreadSessionEntity.class, ThreadSessionEntity.key(target.id(), thread));
        SessionRouting.SessionState threadSession = null;
        if (mapping != null) {
            SessionEntity s = em.find(SessionEntity.class, mapping.getSessionId());
            threadSession = s == null ? null : new SessionRouting.SessionState(s.sid(), s.isClosed());
        }
        SessionRouting.Decision decision = SessionRouting.route(to, named, threadSession);
        long sessionId;
        if (decision.openNew()) {
            sessionId = ids.nextSessionId();
            rows.openSession(sessionId, target.id(), thread, now);
        } else {
            sessionId = SessionEntity.parseSid(decision.sid());
        }
        if (mapping == null) {
            rows.mapThread(target.id(), thread, sessionId);
        } else if (mapping.getSessionId() != sessionId) {
            rows.moveThread(target.id(), thread, sessionId);
        }
        m.from(from.id(), d.from().toString(), fromSession, caller.personId(), from.org())
                .to(target.id(), to.agentOnly().withSession("s" + sessionId).toString(), sessionId, target.ownerPersonId(), to.org());
        m.thread(thread);
    }

    private void routeAnswer(Caller caller, EnvelopeDraft d, AgentInfo from, MessageEntity m, long now) {
        MessageEntity request = byMessageId(d.replyTo());
        if (request == null || !mayAnswer(request)) {
            if (topics.published(d.replyTo())) {
                throw RedsynException.unprocessable("nobody answers an event: " + d.replyTo() + " was published to a topic");
            }
            throw RedsynException.notFound("no request " + d.replyTo());
        }
        if (request.getToAgentId() != from.id()) {
            throw RedsynException.forbidden("only " + Notices.agentPath(request.getToAddress()) + " answers request " + d.replyTo());
        }
        if (!request.getFromOrg().equals(from.org()) && !links.linked(from.org(), request.getFromOrg())) {
            throw RedsynException.forbidden("no active link between " + from.org() + " and " + request.getFromOrg() + " any more");
        }
        if (d.thread() != null && !d.thread().equals(request.getThread())) {
            throw RedsynException.unprocessable("thread must be the request's thread, " + request.getThread());
        }
        if (request.getState() == DeliveryState.CANCELLED) {
            throw RedsynException.conflict("request " + d.replyTo() + " was cancelled");
        }
        if (d.kind() == Kind.REPLY) {
            if (request.isReplied()) {
                throw RedsynException.conflict("request " + d.replyTo() + " already has a reply");
            }
            request.closeByReply(now);
            em.createNamedQuery("File.delete").setParameter("id", request.getMessageId()).executeUpdate();
        }
        Address fromAddress = request.getToSessionId() != null
                ? d.from().withSession("s" + request.getToSessionId()) : d.from();
        m.from(from.id(), fromAddress.toString(), request.getToSessionId(), caller.personId(), from.org())
                .to(request.getFromAgentId(), request.getFromAddress(), request.getFromSessionId(),
                        request.getFromPersonId(), request.getFromOrg());
        m.thread(request.getThread());
    }

    private static boolean mayAnswer(MessageEntity request) {
        return request.getKind() == Kind.REQUEST && !request.isNotice();
    }

    private void checkDailyQuota(Plan plan, String org, long now) {
        if (plan.messagesPerDay() < 0) {
            return;
        }
        long midnight = LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        long sent = em.createNamedQuery("Message.countSince", Long.class).setParameter("org", org)
                .setParameter("since", midnight).getSingleResult();
        if (sent >= plan.messagesPerDay()) {
            throw new RedsynException(429, org + " has sent the " + plan.messagesPerDay() + " messages of its "
                    + plan.name() + " plan today; they come back at 00:00 UTC", Map.of("quota", true));
        }
    }

    private void checkFilesQuota(Plan plan, String org, long adding) {
        if (plan.filesPendingBytes() < 0) {
            return;
        }
        Number pending = (Number) em.createNamedQuery("File.pendingBytes").setParameter("org", org).getSingleResult();
        long total = (pending == null ? 0 : pending.longValue()) + adding;
        if (total > plan.filesPendingBytes()) {
            throw new RedsynException(403, org + " has " + (plan.filesPendingBytes() / (1024 * 1024))
                    + " MB of files waiting for delivery on its " + plan.name() + " plan", Map.of("quota", true));
        }
    }

    private static JsonObject accepted(MessageEntity m, boolean duplicate) {
        var b = Jsons.PROVIDER.createObjectBuilder().add("id", m.getMessageId()).add("thread", m.getThread())
                .add("to", m.getToAddress()).add("signed", m.isSigned());
        if (duplicate) {
            b.add("duplicate", true).add("state", DeliveryState.name(m.getState()));
        }
        return b.build();
    }

    /** {@code POST /messages/{id}/cancel}: withdraws a request nobody took yet. */
    public JsonObject cancel(Caller caller, String id) {
        MessageEntity m = byMessageId(id);
        if (m == null || m.getFromPersonId() == null || m.getFromPersonId() != caller.personId()) {
            throw RedsynException.notFound("no message " + id + " of yours");
        }
        if (m.getKind() != Kind.REQUEST) {
            throw RedsynException.unprocessable("only a request can be cancelled");
        }
        if (m.getState() == DeliveryState.CANCELLED) {
            return Jsons.PROVIDER.createObjectBuilder().add("id", id).add("cancelled", true).build();
        }
        if (m.getState() != DeliveryState.QUEUED || m.getAttempts() > 0) {
            throw RedsynException.conflict("request " + id + " was already taken; it can no longer be cancelled");
        }
        int changed = em.createNamedQuery("Message.setState").setParameter("seq", m.getSeq())
                .setParameter("from", DeliveryState.QUEUED).setParameter("to", DeliveryState.CANCELLED)
                .setParameter("now", System.currentTimeMillis()).executeUpdate();
        if (changed == 0) {
            throw RedsynException.conflict("request " + id + " was already taken; it can no longer be cancelled");
        }
        em.createNamedQuery("File.delete").setParameter("id", id).executeUpdate();
        return Jsons.PROVIDER.createObjectBuilder().add("id", id).add("cancelled", true).build();
    }

    /** {@code GET /messages/{id}/files}: the zip, for the sender's and the receiver's organisations, until delivered. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject files(Caller caller, String id) {
        MessageEntity m = byMessageId(id);
        if (m == null || !(directory.membership(m.getFromOrg(), caller.personId()) != null
                || directory.membership(m.getToOrg(), caller.personId()) != null)) {
            throw RedsynException.notFound("no message " + id);
        }
        if (m.getFilesBytes() == null) {
            throw RedsynException.notFound("message " + id + " has no files");
        }
        FileEntity f = em.find(FileEntity.class, id);
        if (f == null) {
            throw new RedsynException(410, "the files of " + id + " were deleted once delivered");
        }
        return Jsons.PROVIDER.createObjectBuilder().add("zip", Base64.getEncoder().encodeToString(f.getZip()))
                .add("bytes", m.getFilesBytes()).add("sha256", m.getFilesSha256()).build();
    }

    /** A message by its wire id, or null. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public MessageEntity byMessageId(String id) {
        List<MessageEntity> found = em.createNamedQuery("Message.byMessageId", MessageEntity.class).setParameter("id", id).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private SessionEntity session(String sid, long agentId) {
        Long key = SessionEntity.parseSid(sid);
        if (key == null) {
            return null;
        }
        SessionEntity s = em.find(SessionEntity.class, key);
        return s == null || s.getAgentId() != agentId ? null : s;
    }

    /** The organisation in the envelope's {@code from}, for its plan's limits (null when unreadable: validation will say why). */
    private static String senderOrg(JsonObject raw) {
        if (raw.get("from") instanceof JsonString s) {
            int slash = s.getString().indexOf('/');
            return slash > 0 ? s.getString().substring(0, slash) : null;
        }
        return null;
    }
}
