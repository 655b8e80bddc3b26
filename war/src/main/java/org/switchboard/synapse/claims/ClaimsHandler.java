package org.switchboard.synapse.claims;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.idempotency.JournalCommit;
import org.switchboard.synapse.idempotency.MutationCommit;
import org.switchboard.synapse.idempotency.MutationFlow;
import org.switchboard.synapse.Connection;

/**
 * The claim verb family (§9): {@code claim}, {@code release}, {@code task_update}, {@code handoff},
 * {@code checkpoint} and {@code wait_request}. Decodes, supplies the quota principal and the
 * online check, and runs the {@link ClaimBook} rule through the keyed {@link MutationFlow}.
 *
 * <p>Claim-family appends are <em>ordered</em>, not awaited: the book enqueues its journal batch
 * under its lock (so seq order = decision order) and replies go out only once the batch committed.
 */
@ApplicationScoped
public class ClaimsHandler implements VerbHandler {

    private static final Set<String> TYPES = Set.of("claim", "release", "task_update", "handoff", "checkpoint",
            "wait_request");

    @Inject
    ClaimsState state;

    /** The singleton's rule objects, fetched once: they never change, and this saves EJB calls per frame. */
    private record Parts(ClaimBook book, MutationFlow flow, AtomicReference<CompletableFuture<long[]>> lastAppend) {
    }

    private volatile Parts parts;

    private Parts parts() {
        Parts p = parts;
        if (p == null) {
            p = new Parts(state.book(), state.flow(), state.lastClaimAppend());
            parts = p;
        }
        return p;
    }

    @Override
    public Set<String> types() {
        return TYPES;
    }

    @Override
    public boolean mutating(String type) {
        return !"wait_request".equals(type);
    }

    @Override
    public void handle(InboundFrame in, SynapseContext ctx) {
        Parts p = parts();
        ClaimBook book = p.book();
        MutationFlow flow = p.flow();
        AtomicReference<CompletableFuture<long[]>> lastAppend = p.lastAppend();
        String sender = in.sender();
        JsonObject frame = in.frame();
        switch (in.type()) {
            case "claim" -> {
                ClaimRequest request = book.request(frame);
                String principal = quotaPrincipal(in.connection());
                flow.run(in, ctx, false, (commit, now) ->
                        book.claim(request, sender, principal, now, ordered(commit, lastAppend)).mutation(), state::claimAppendLost);
            }
            // parsed inside the rule: the flow has already refused a keyed frame that is not canonical JSON
            case "release" -> flow.run(in, ctx, false, (commit, now) -> book.release(ReleaseRequest.from(frame, sender),
                    sender, now, ordered(commit, lastAppend)).mutation(), state::claimAppendLost);
            case "task_update" -> {
                TaskUpdateRequest request = TaskUpdateRequest.from(frame);
                flow.run(in, ctx, false, (commit, now) ->
                        book.taskUpdate(request, sender, now, ordered(commit, lastAppend)).mutation(), state::claimAppendLost);
            }
            case "checkpoint" -> {
                CheckpointRequest request = CheckpointRequest.from(frame);
                flow.run(in, ctx, false, (commit, now) ->
                        book.checkpoint(request, sender, now, ordered(commit, lastAppend)).mutation(), state::claimAppendLost);
            }
            case "handoff" -> {
                HandoffRequest request = HandoffRequest.from(frame);
                String to = request.to();
                Connection recipient = to.isEmpty() ? null : ctx.registry().socketOf(to);
                String recipientPrincipal = recipient == null ? "" : quotaPrincipal(recipient);
                flow.run(in, ctx, false, (commit, now) -> book.handoff(request, sender,
                        name -> ctx.registry().socketOf(name) != null, recipientPrincipal, now, ordered(commit, lastAppend))
                        .mutation(), state::claimAppendLost);
            }
            case "wait_request" -> {
                double now = ctx.frames().now();
                ClaimVerdict verdict = book.waitFor(WaitRequest.from(frame), sender, now);
                MutationFlow.publish(verdict.mutation().replies(), null, in.connection(), sender, now,
                        ctx.frames().hubId(), ctx);
            }
            default -> throw new IllegalArgumentException(in.type());
        }
    }

    /** Wraps the journal commit so the coordination state knows the latest ordered append. */
    private static MutationCommit ordered(JournalCommit commit, AtomicReference<CompletableFuture<long[]>> lastAppend) {
        return mutation -> {
            commit.commit(mutation);
            lastAppend.set(commit.committed());
        };
    }

    /** Credential digest on a secured hub, else {@code open-host:<host>} (§9.2 quota principal). */
    static String quotaPrincipal(Connection connection) {
        String principal = connection.quotaPrincipal();
        if (principal != null && !principal.isEmpty()) {
            return principal;
        }
        String host = connection.peer().remoteHost();
        return "open-host:" + (host == null ? "" : host);
    }
}
