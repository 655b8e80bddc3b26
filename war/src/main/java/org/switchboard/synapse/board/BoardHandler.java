package org.switchboard.synapse.board;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.idempotency.HubReply;

/**
 * The blackboard verbs (§10): {@code ledger_task}, {@code ledger_task_update},
 * {@code ledger_progress} and {@code board_request}. Board appends are awaited, so a journal
 * failure reaches the {@link Blackboard}, which rolls back and answers with the §10.6 sentence.
 */
@ApplicationScoped
public class BoardHandler implements VerbHandler {

    private static final Logger LOG = Logger.getLogger(BoardHandler.class.getName());
    private static final Set<String> TYPES = Set.of("ledger_task", "ledger_task_update", "ledger_progress",
            "board_request");

    @Inject
    BoardState state;

    @Override
    public Set<String> types() {
        return TYPES;
    }

    @Override
    public boolean mutating(String type) {
        return !"board_request".equals(type);
    }

    @Override
    public void handle(InboundFrame in, SynapseContext ctx) {
        Blackboard board = state.board();
        String sender = in.sender();
        if ("board_request".equals(in.type())) {
            HubReply reply = HubReply.toRequester("board_snapshot", "Board snapshot",
                    PROVIDER.createObjectBuilder().add("board", board.snapshot()).build());
            in.connection().send(reply.toFrame(sender, ctx.frames().now(), ctx.frames().hubId()).toString());
            return;
        }
        state.flow().run(in, ctx, true, (commit, now) -> {
            BoardVerdict verdict = switch (in.type()) {
                case "ledger_task" -> board.declare(LedgerTaskRequest.from(in.frame()), sender, now, commit);
                case "ledger_task_update" -> board.update(LedgerTaskUpdateRequest.from(in.frame()), sender, now, commit);
                default -> board.progress(LedgerProgressRequest.from(in.frame()), sender, now, commit);
            };
            if (verdict.failure() != null) {
                LOG.log(Level.WARNING, "SYNAPSE " + in.type() + " from " + org.switchboard.logging.LogSafe.text(sender) + " rolled back", verdict.failure());
            }
            return verdict.mutation();
        }, error -> { });
    }
}
