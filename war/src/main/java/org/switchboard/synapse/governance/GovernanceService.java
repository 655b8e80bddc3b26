package org.switchboard.synapse.governance;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.journal.JournalEvent;
import org.switchboard.journal.snapshot.SnapshotText;
import org.switchboard.json.Jsons;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.acl.Access;
import org.switchboard.synapse.acl.AclLayer;
import org.switchboard.synapse.acl.Permissions;
import org.switchboard.synapse.idempotency.IdempotencyLedger;
import org.switchboard.synapse.idempotency.RequestDigest;
import org.switchboard.synapse.identity.IdentityBinding;
import org.switchboard.synapse.identity.IdentityPins;
import org.switchboard.synapse.identity.IdentityProofStep;
import org.switchboard.synapse.identity.TrustBundle;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.session.NameLeases;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.NonCanonicalException;

/**
 * The governed operator verbs of synapse-advanced §7 (7.1, 7.2, 7.3, 7.5) for one hub: runs each
 * verb's gates ({@link PinReclaimGates}, {@link EnrollmentGates}, {@link EntitlementAdvertShape},
 * {@link GuardDenialShape}), writes the audit rows write-ahead, applies the change (pin removal,
 * overlay write and trust-bundle swap, evictions), answers privately and broadcasts body-free
 * notices. Key material never enters a journal row, a log line or a frame; only digests do.
 */
public final class GovernanceService {

    /** Journal kinds this service writes; every one is audit-only at replay. */
    public static final Set<String> AUDIT_KINDS = Set.of("identity_pin_reclaim", "identity_enrollment",
            "entitlement_advert", "guard_denial");
    /** Close code and reason of a reclaimed pin's live holder (§1.5). */
    public static final int CLOSE_RECLAIMED = 4017;
    static final String REASON_RECLAIMED = "identity pin reclaimed";
    /** Close code and reason of a socket whose enrolled key was rotated or revoked (§1.5). */
    public static final int CLOSE_KEY_REVOKED = 4018;
    static final String REASON_KEY_REVOKED = "identity key rotated or revoked";
    static final String PERSIST_PIN = "could not persist the reclaimed pin table";
    static final String PERSIST_ENROLMENT = "could not persist the enrolment store";
    static final String PIN_RACE = "the pin changed before it could be removed; nothing was changed";
    static final String NOT_JOURNALLED = "the approval could not be journalled; nothing was changed";
    /** §7.5 per-credential window: 100 events and 256 KiB of frame bytes per 60 s. */
    static final int GUARD_EVENTS = 100;
    static final long GUARD_BYTES = 256L * 1024;
    static final double GUARD_WINDOW_SECONDS = 60;
    static final int GUARD_MAX_PRINCIPALS = 4096;
    /** Keyed guard denials whose acknowledgement a retry can still replay ([OURS]: the most recent 65,536). */
    static final int GUARD_ACKS_KEPT = 65_536;

    private static final Logger LOG = Logger.getLogger(GovernanceService.class.getName());
    private static final long APPEND_SECONDS = 30;

    /** A recorded guard denial as its acknowledgement needs it (idempotent replay by {@code idem_key}). */
    private record GuardAck(long seq, String callSha256, String reasonCode, double at, String requestDigest) {
    }

    private final SynapseContext ctx;
    private final NameLeases leases;
    private final AclLayer acl;
    private final Path overlayPath;
    private final Object enrolLock = new Object();
    private final Object guardLock = new Object();
    private final SlidingWindow enrolRate;
    private final SlidingWindow guardWindow = new SlidingWindow(GUARD_EVENTS, GUARD_BYTES, GUARD_WINDOW_SECONDS,
            GUARD_MAX_PRINCIPALS);
    // key: SHA-256 of the operation key (sender NUL guard_denial NUL idem_key), as the journal row holds it
    private final RecentAcks<GuardAck> guardAcks = new RecentAcks<>(GUARD_ACKS_KEPT);
    private volatile EnrollmentOverlay overlay = new EnrollmentOverlay(java.util.List.of());
    private volatile String overlayFault;

    /** The verbs of the hub with context {@code ctx}; {@code leases} are its ownership leases. */
    public GovernanceService(SynapseContext ctx, NameLeases leases) {
        this.ctx = ctx;
        this.leases = leases;
        this.acl = AclLayer.of(ctx);
        this.enrolRate = new SlidingWindow(Math.max(0, ctx.settings().identityEnrollRateLimit()), Long.MAX_VALUE,
                Math.max(1, ctx.settings().identityEnrollRateWindowSeconds()), 100_000);
        String configured = ctx.settings().identityEnrollments();
        this.overlayPath = configured == null || configured.isBlank() ? null : Path.of(configured.trim());
        if (overlayPath != null) {
            try {
                overlay = EnrollmentOverlay.load(overlayPath);
                TrustBundle operator = binding() == null ? null : binding().operatorBundle();
                if (operator != null) {
                    binding().useBundle(overlay.mergedWith(operator));
                }
                LOG.info("SYNAPSE identity enrolment: " + overlay.entries().size() + " enrolled key(s) from "
                        + EnrollmentOverlay.KEY);
            } catch (PolicyFileException e) {
                overlayFault = e.getMessage(); // the runtime logs it once at SEVERE (GovernanceStartup) and stops serving
            }
        }
    }

    private IdentityBinding binding() {
        return IdentityProofStep.bindingOf(ctx);
    }

    /** Why the configured enrolment overlay was refused at start (null: usable or not configured). */
    public String overlayFault() {
        return overlayFault;
    }

    /** Start-up replay: guard-denial rows rebuild the {@code idem_key} acknowledgements; nothing else changes (audit only). */
    public void replay(JournalEvent event) {
        if (!"guard_denial".equals(event.kind())) {
            return;
        }
        JsonObject p = event.payload();
        if (p.get("idem_sha256") instanceof jakarta.json.JsonString key) {
            guardAcks.put(key.getString(), new GuardAck(event.seq(), p.getString("call_sha256", ""),
                    p.getString("reason_code", ""), p.getJsonNumber("recorded_at") == null ? event.appendedAt()
                    : p.getJsonNumber("recorded_at").doubleValue(), p.getString("request_digest", "")));
        }
    }

    // ---- §7.1 identity_pin_reclaim ----

    /** Handles one {@code identity_pin_reclaim}. */
    public void reclaim(InboundFrame in) {
        String requester = in.sender();
        PinReclaimGates.Request r = PinReclaimGates.Request.of(in.frame());
        IdentityBinding binding = binding();
        double now = ctx.frames().now();
        String refusal = PinReclaimGates.refusal(requester, r, new PinReclaimGates.Facts() {
            @Override
            public boolean aclAllows(String who, String pinName) {
                return acl.decide(who, new Access(Permissions.IDENTITY_PIN_RECLAIM, "agent", pinName)).allowed();
            }

            @Override
            public boolean proven(String who) {
                return binding != null && binding.proven(who);
            }

            @Override
            public boolean durableJournal() {
                return ctx.hasJournal();
            }

            @Override
            public String pinnedKeyId(String name) {
                IdentityPins.Pin pin = binding == null ? null : binding.pin(name);
                return pin == null ? null : pin.keyId();
            }

            @Override
            public boolean online(String name) {
                return ctx.registry().socketOf(name) != null;
            }

            @Override
            public boolean leaseLive(String name) {
                return leases != null && leases.held(name, now);
            }
        });
        if (refusal != null) {
            reclaimResult(in, r, false, null, "Pin reclaim refused: " + refusal + ".", "refused");
            return;
        }
        boolean online = ctx.registry().socketOf(r.pinName()) != null;
        JsonObjectBuilder audit = Jsons.PROVIDER.createObjectBuilder()
                .add("operator", requester).add("operator_key_id", operatorKeyId(binding, requester))
                .add("pin_name", r.pinName()).add("expected_key_id", r.expectedKeyId()).add("reason", r.reason())
                .add("break_glass", r.breakGlass()).add("owner_online", online)
                .add("lease_live", leases != null && leases.held(r.pinName(), now)).add("hub_id", ctx.frames().hubId());
        JsonObject provenance = audit.build();
        Long approved = append("identity_pin_reclaim", with(provenance, "status", "approved"));
        if (approved == null) {
            reclaimResult(in, r, false, null, "Pin reclaim not applied: " + NOT_JOURNALLED + ".", "not_applied");
            return;
        }
        String detail = null;
        try {
            if (!binding.pins().removeIfMatches(r.pinName(), r.expectedKeyId())) {
                detail = PIN_RACE;
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SYNAPSE identity_pin_reclaim of " + LogSafe.text(r.pinName())
                    + " could not remove the pin row", LogSafe.failure(e));
            detail = PERSIST_PIN;
        }
        if (detail != null) {
            append("identity_pin_reclaim", Jsons.PROVIDER.createObjectBuilder(provenance).add("status", "not_applied")
                    .add("approved_seq", approved).add("detail", detail).build());
            reclaimResult(in, r, false, approved, detail, "not_applied");
            return;
        }
        Connection live = ctx.registry().socketOf(r.pinName());
        boolean evicted = live != null;
        if (evicted) {
            live.close(CLOSE_RECLAIMED, REASON_RECLAIMED);
        }
        if (leases != null) {
            leases.revoke(r.pinName());
        }
        Long applied = append("identity_pin_reclaim", Jsons.PROVIDER.createObjectBuilder(provenance)
                .add("status", "applied").add("approved_seq", approved).add("evicted_live_socket", evicted).build());
        long auditSeq = applied == null ? approved : applied;
        LOG.info("SYNAPSE identity pin of " + LogSafe.text(r.pinName()) + " reclaimed by " + LogSafe.text(requester)
                + " (audit seq " + auditSeq + (r.breakGlass() ? ", break glass" : "") + ")");
        ctx.broadcast(ctx.frames().hub("system", "all", "").add("event_kind", "identity_pin_reclaim")
                .add("operator", requester).add("pin_name", r.pinName()).add("previous_key_id", r.expectedKeyId())
                .add("break_glass", r.breakGlass()).add("audit_seq", auditSeq).build().toString());
        reclaimResult(in, r, true, auditSeq, "Pin of '" + r.pinName() + "' reclaimed" + (evicted
                ? "; its live socket was closed (4017)" : "") + ". The next valid signed registration pins a new key.", "applied");
    }

    private void reclaimResult(InboundFrame in, PinReclaimGates.Request r, boolean applied, Long auditSeq, String text,
                               String outcome) {
        JsonObjectBuilder b = ctx.frames().hub("identity_pin_reclaim_result", in.sender(), text).add("applied", applied);
        nullable(b, "pin_name", r.pinName());
        nullable(b, "expected_key_id", r.expectedKeyId());
        b.add("break_glass", r.breakGlass());
        seq(b, auditSeq);
        in.connection().send(b.build().toString());
        ctx.counters().governedVerb("identity_pin_reclaim", outcome);
    }

    // ---- §7.2 identity_enroll / identity_revoke ----

    /** True when enrolment is configured and usable: overlay loaded, operator bundle, durable journal. */
    public boolean enrolmentEnabled() {
        IdentityBinding binding = binding();
        return overlayPath != null && overlayFault == null && binding != null && binding.operatorBundle() != null
                && ctx.hasJournal();
    }

    /** Handles one {@code identity_enroll} ({@code revoke} false) or {@code identity_revoke}. */
    public void enroll(InboundFrame in, boolean revoke) {
        String verb = revoke ? "identity_revoke" : "identity_enroll";
        String requester = in.sender();
        EnrollmentGates.Request r = EnrollmentGates.Request.of(in.frame());
        IdentityBinding binding = binding();
        synchronized (enrolLock) { // one overlay change at a time: the file and the bundle stay in step
            double now = ctx.frames().now();
            String refusal = EnrollmentGates.authority(requester, r.name(), authority(binding, now));
            if (refusal != null) {
                enrolResult(in, verb, r, false, null, "Refused: " + refusal + ".", "refused");
                return;
            }
            String action = revoke ? "revoke" : r.enrollAction();
            EnrollmentOverlay current = overlay;
            EnrollmentGates.Stores stores = stores(binding.operatorBundle(), current, now);
            String problem = revoke ? EnrollmentGates.revokeProblem(r, stores)
                    : EnrollmentGates.enrollProblem(requester, r, stores, now);
            JsonObject event = enrolEvent(action, requester, binding, r, revoke);
            if (problem != null) {
                Long denied = append("identity_enrollment", Jsons.PROVIDER.createObjectBuilder(event)
                        .add("status", "denied").add("applied", false).add("detail", problem).build());
                enrolResult(in, verb, r, false, denied, "Refused: " + problem + ".", "denied");
                return;
            }
            Long approved = append("identity_enrollment", Jsons.PROVIDER.createObjectBuilder(event)
                    .add("status", "approved").add("applied", false).build());
            if (approved == null) {
                enrolResult(in, verb, r, false, null, "Not applied: " + NOT_JOURNALLED + ".", "not_applied");
                return;
            }
            EnrollmentOverlay next = revoke ? current.with(null, r.keyId())
                    : current.with(new EnrollmentOverlay.Entry(r.keyId(), EnrollmentGates.publicKey(r.publicKey()), r.name(),
                    r.expiresAt() instanceof jakarta.json.JsonNumber n ? n.doubleValue() : null, false), r.expectedKeyId());
            try {
                next.writeAtomically(overlayPath);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "SYNAPSE " + verb + " could not write " + EnrollmentOverlay.KEY, LogSafe.failure(e));
                append("identity_enrollment", Jsons.PROVIDER.createObjectBuilder(event).add("status", "not_applied")
                        .add("applied", false).add("approved_seq", approved).add("detail", PERSIST_ENROLMENT).build());
                enrolResult(in, verb, r, false, approved, PERSIST_ENROLMENT, "not_applied");
                return;
            }
            overlay = next;
            binding.useBundle(next.mergedWith(binding.operatorBundle()));
            enrolRate.record(requester, 0, now);
            boolean evicted = false;
            if (!"enroll".equals(action) && !r.name().equals(requester)) {
                Connection live = ctx.registry().socketOf(r.name());
                if (live != null) {
                    live.close(CLOSE_KEY_REVOKED, REASON_KEY_REVOKED);
                    evicted = true;
                }
            }
            Long applied = append("identity_enrollment", Jsons.PROVIDER.createObjectBuilder(event)
                    .add("status", "applied").add("applied", true).add("approved_seq", approved)
                    .add("evicted_live_socket", evicted).build());
            long auditSeq = applied == null ? approved : applied;
            LOG.info("SYNAPSE identity enrolment " + action + " of " + LogSafe.text(r.name()) + " key "
                    + LogSafe.text(r.keyId()) + " by " + LogSafe.text(requester) + " (audit seq " + auditSeq + ")");
            enrolResult(in, verb, r, true, auditSeq, switch (action) {
                case "revoke" -> "Key '" + r.keyId() + "' of '" + r.name() + "' revoked" + (evicted ? "; its live socket was closed (4018)." : ".");
                case "rotate" -> "Key '" + r.keyId() + "' replaces '" + r.expectedKeyId() + "' for '" + r.name() + "'"
                        + (evicted ? "; the live socket was closed (4018)." : ".");
                default -> "Key '" + r.keyId() + "' enrolled for '" + r.name() + "'; it is usable at the next registration.";
            }, "applied");
            ctx.broadcast(ctx.frames().hub("system", "all", "").add("event_kind", "identity_enrollment")
                    .add("action", action).add("operator", requester).add("name", r.name()).add("key_id", r.keyId())
                    .add("audit_seq", auditSeq).build().toString());
        }
    }

    private EnrollmentGates.Authority authority(IdentityBinding binding, double now) {
        return new EnrollmentGates.Authority() {
            @Override
            public boolean enabled() {
                return enrolmentEnabled();
            }

            @Override
            public boolean proven(String requester) {
                return binding.proven(requester);
            }

            @Override
            public boolean aclAllows(String requester, String name) {
                return acl.decide(requester, new Access("identity-enroll", "agent", name)).allowed();
            }

            @Override
            public boolean hasRole(String requester, String role) {
                return acl.roleGrants().mayClaim(requester, role);
            }

            @Override
            public boolean namespaceAllowed(String project) {
                return !project.isEmpty() && ctx.settings().identityEnrollNamespaces().contains(project);
            }

            @Override
            public boolean rateAllows(String requester) {
                return ctx.settings().identityEnrollRateLimit() > 0 && enrolRate.refusal(requester, 0, now) == null;
            }
        };
    }

    private static EnrollmentGates.Stores stores(TrustBundle operator, EnrollmentOverlay current, double now) {
        return new EnrollmentGates.Stores() {
            @Override
            public boolean keyIdUsed(String keyId) {
                return operator.get(keyId) != null || current.get(keyId) != null;
            }

            @Override
            public boolean coveredByOperator(String name) {
                return operator.covers(name);
            }

            @Override
            public String liveEnrolledKey(String name) {
                EnrollmentOverlay.Entry live = current.liveKeyOf(name, now);
                return live == null ? null : live.keyId();
            }

            @Override
            public boolean enrolledKeyOf(String name, String keyId) {
                EnrollmentOverlay.Entry entry = current.get(keyId);
                return entry != null && entry.name().equals(name) && !entry.revoked();
            }
        };
    }

    private JsonObject enrolEvent(String action, String requester, IdentityBinding binding, EnrollmentGates.Request r,
                                  boolean revoke) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("action", action).add("operator", requester)
                .add("operator_key_id", operatorKeyId(binding, requester));
        nullable(b, "name", r.name());
        nullable(b, "key_id", r.keyId());
        if (!revoke) {
            byte[] raw = EnrollmentGates.publicKey(r.publicKey());
            if (raw != null) {
                b.add("public_key_sha256", sha256(raw));
            } else {
                b.addNull("public_key_sha256");
            }
        }
        nullable(b, "expected_key_id", r.expectedKeyId());
        nullable(b, "reason", r.reason() == null ? null : r.reason().length() > EnrollmentGates.MAX_REASON
                ? r.reason().substring(0, EnrollmentGates.MAX_REASON) : r.reason());
        return b.build();
    }

    private void enrolResult(InboundFrame in, String verb, EnrollmentGates.Request r, boolean applied, Long auditSeq,
                             String text, String outcome) {
        JsonObjectBuilder b = ctx.frames().hub(verb + "_result", in.sender(), text);
        nullable(b, "name", r.name());
        nullable(b, "key_id", r.keyId());
        b.add("applied", applied);
        seq(b, auditSeq);
        in.connection().send(b.build().toString());
        ctx.counters().governedVerb(verb, outcome);
    }

    // ---- §7.3 entitlement_advert ----

    /** Handles one {@code entitlement_advert}: gates, exact shape, one audit-only journal row; never broadcast. */
    public void advert(InboundFrame in) {
        String requester = in.sender();
        JsonValue advert = in.frame().get("advert");
        String alias = EntitlementAdvertShape.poolAlias(advert);
        IdentityBinding binding = binding();
        String refusal;
        if (!ctx.hasJournal()) {
            refusal = "a durable journal is required for governed verbs";
        } else if (binding == null || !binding.proven(requester)) {
            refusal = PinReclaimGates.NOT_PROVEN;
        } else if (!acl.decide(requester, new Access("entitlement-advertise", "pool-alias", alias)).allowed()) {
            refusal = "not authorised: ACL permission entitlement-advertise on pool-alias:" + alias;
        } else {
            refusal = EntitlementAdvertShape.problem(advert);
        }
        if (refusal != null) {
            advertResult(in, alias, false, null, "Entitlement advert refused: " + refusal + ".", "refused");
            return;
        }
        Long seq = append("entitlement_advert", Jsons.PROVIDER.createObjectBuilder().add("advertiser", requester)
                .add("advertiser_key_id", operatorKeyId(binding, requester)).add("hub_id", ctx.frames().hubId())
                .add("advert", advert).build());
        if (seq == null) {
            advertResult(in, alias, false, null, "Entitlement advert not recorded: the journal append failed.", "not_applied");
            return;
        }
        advertResult(in, alias, true, seq, "Entitlement advert recorded (audit only, not broadcast).", "applied");
    }

    private void advertResult(InboundFrame in, String alias, boolean applied, Long auditSeq, String text, String outcome) {
        JsonObjectBuilder b = ctx.frames().hub("entitlement_advert_result", in.sender(), text);
        nullable(b, "pool_alias", alias.isEmpty() ? null : alias);
        b.add("applied", applied);
        seq(b, auditSeq);
        in.connection().send(b.build().toString());
        ctx.counters().governedVerb("entitlement_advert", outcome);
    }

    // ---- §7.5 guard_denial ----

    /** Handles one {@code guard_denial} (processing steps 1, 3–7; step 2 is the pipeline's ACL gate). */
    public void guardDenial(InboundFrame in) {
        Connection connection = in.connection();
        JsonObject frame = in.frame();
        String sender = in.sender();
        if (!ctx.settings().secured() || !ctx.hasJournal()) {
            guardError(in, "guard_evidence_unavailable", "Guard evidence is unavailable on this hub: it needs connect"
                    + " authentication and a durable journal. Nothing was recorded.", null, "unavailable");
            return;
        }
        String problem = GuardDenialShape.problem(frame);
        if (problem != null) {
            guardError(in, "guard_evidence", "Malformed guard_denial: " + problem + ".", null, "malformed");
            return;
        }
        String principal = connection.quotaPrincipal();
        if (principal == null || !principal.startsWith("auth-token:")) {
            guardError(in, "guard_evidence_unauthenticated", "Guard evidence needs a connect-token principal.", null,
                    "unauthenticated");
            return;
        }
        String idem = IdempotencyLedger.idemKey(frame);
        synchronized (guardLock) { // a retry racing its original must see its acknowledgement
            String idemSha = null;
            String digest = "";
            if (!idem.isEmpty()) {
                idemSha = sha256(IdempotencyLedger.operationKey(sender, "guard_denial", idem).getBytes(StandardCharsets.UTF_8));
                try {
                    digest = RequestDigest.of(frame, sender, "guard_denial");
                } catch (NonCanonicalException e) {
                    guardError(in, "guard_evidence", RequestDigest.NON_CANONICAL_SENTENCE, null, "malformed");
                    return;
                }
                GuardAck prior = guardAcks.get(idemSha);
                if (prior != null) {
                    if (prior.requestDigest().isEmpty() || prior.requestDigest().equals(digest)) {
                        connection.send(ack(sender, prior));
                        ctx.counters().governedVerb("guard_denial", "replayed");
                    } else {
                        connection.send(ctx.frames().error(sender, IdempotencyLedger.CONFLICT_SENTENCE)
                                .add("error_code", IdempotencyLedger.CONFLICT_CODE).build().toString());
                        ctx.counters().governedVerb("guard_denial", "conflict");
                    }
                    return;
                }
            }
            double now = ctx.frames().now();
            long bytes = frame.toString().getBytes(StandardCharsets.UTF_8).length;
            String limit = guardWindow.refusal(principal, bytes, now);
            if (limit != null) {
                guardError(in, "guard_evidence_rate_limited", "Guard evidence rate limit reached for this credential ("
                        + limit + "); nothing was recorded.", limit, "rate_limited");
                return;
            }
            guardWindow.record(principal, bytes, now);
            JsonObjectBuilder row = Jsons.PROVIDER.createObjectBuilder()
                    .add("actor_sha256", frame.getString("actor_sha256")).add("call_sha256", frame.getString("call_sha256"))
                    .add("decision", "deny").add("path_count", frame.getJsonNumber("path_count").intValue())
                    .add("provider", frame.getString("provider")).add("reason_code", frame.getString("reason_code"))
                    .add("scope_sha256", frame.getString("scope_sha256"))
                    .add("credential_principal_sha256", sha256(principal.getBytes(StandardCharsets.UTF_8)))
                    .add("recorder_sha256", sha256(sender.getBytes(StandardCharsets.UTF_8)))
                    .add("recorded_at", now);
            if (idemSha != null) {
                row.add("idem_sha256", idemSha).add("request_digest", digest);
            }
            Long seq = append("guard_denial", row.build());
            if (seq == null) {
                guardError(in, "guard_evidence_unavailable", "Guard evidence was not recorded: the journal append failed.",
                        null, "not_applied");
                return;
            }
            GuardAck recorded = new GuardAck(seq, frame.getString("call_sha256"), frame.getString("reason_code"), now, digest);
            if (idemSha != null) {
                guardAcks.put(idemSha, recorded);
            }
            connection.send(ack(sender, recorded));
            ctx.counters().governedVerb("guard_denial", "recorded");
        }
    }

    private String ack(String target, GuardAck a) {
        return Jsons.PROVIDER.createObjectBuilder().add("sender", HubStrings.HUB_SENDER).add("target", target)
                .add("type", "guard_denial_recorded").add("payload", "").add("timestamp", a.at())
                .add("hub_id", ctx.frames().hubId()).add("audit_seq", a.seq()).add("call_sha256", a.callSha256())
                .add("reason_code", a.reasonCode()).build().toString();
    }

    private void guardError(InboundFrame in, String code, String text, String limitReason, String outcome) {
        JsonObjectBuilder b = ctx.frames().error(in.sender(), text).add("error_code", code);
        if (limitReason != null) {
            b.add("limit_reason", limitReason);
        }
        in.connection().send(b.build().toString());
        ctx.counters().governedVerb("guard_denial", outcome);
    }

    // ---- shared ----

    /** "bundle" when requesters are bound by the operator bundle, else the key id of the requester's pin. */
    private static String operatorKeyId(IdentityBinding binding, String requester) {
        if (binding == null) {
            return "";
        }
        if (binding.required()) {
            return "bundle";
        }
        IdentityPins.Pin pin = binding.pin(requester);
        return pin == null ? "" : pin.keyId();
    }

    /** Appends one row and waits until it committed; null when it did not (logged, never thrown). */
    private Long append(String kind, JsonObject payload) {
        try {
            return ctx.journal().append(kind, payload).get(APPEND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            LOG.log(Level.WARNING, "SYNAPSE governed verb: journal append of '" + kind + "' failed", LogSafe.failure(e));
            return null;
        }
    }

    private static JsonObject with(JsonObject o, String key, String value) {
        return Jsons.PROVIDER.createObjectBuilder(o).add(key, value).build();
    }

    private static void nullable(JsonObjectBuilder b, String key, String value) {
        if (value == null) {
            b.addNull(key);
        } else {
            b.add(key, value);
        }
    }

    private static void seq(JsonObjectBuilder b, Long auditSeq) {
        if (auditSeq == null) {
            b.addNull("audit_seq");
        } else {
            b.add("audit_seq", auditSeq.longValue());
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** The replayed state as a snapshot part (issue 20): the guard-denial acknowledgements, all {@link #replay} builds. */
    public org.switchboard.journal.snapshot.SnapshotPart snapshotPart() {
        return org.switchboard.journal.snapshot.SnapshotPart.of("governance", () -> {
            jakarta.json.JsonArrayBuilder acks = org.switchboard.json.Jsons.PROVIDER.createArrayBuilder();
            for (java.util.Map.Entry<String, GuardAck> e : guardAcks.entries()) {
                GuardAck a = e.getValue();
                acks.add(org.switchboard.json.Jsons.PROVIDER.createArrayBuilder().add(e.getKey()).add(a.seq())
                        .add(a.callSha256()).add(a.reasonCode()).add(a.at()).add(a.requestDigest()));
            }
            return org.switchboard.json.Jsons.PROVIDER.createObjectBuilder().add("guard_acks", acks).build().toString();
        }, text -> {
            JsonObject part = SnapshotText.object(text);
            try {
                SnapshotText.eachArray(part, "guard_acks", a -> guardAcks.put(a.getString(0),
                        new GuardAck(a.getJsonNumber(1).longValueExact(), a.getString(2), a.getString(3),
                                a.getJsonNumber(4).doubleValue(), a.getString(5))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("governance snapshot part: " + e, e);
            }
        });
    }
}
