package org.switchboard.redsyn.message;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.store.GroupedUpdates;
import org.switchboard.redsyn.store.RelayWriter;

/**
 * {@code POST /messages}: accepts the send in a read ({@link MessageService#accept}), then has a request's
 * rows committed by the relay writer with other requests' writes, and answers only after that commit.
 * Runs outside any transaction: it waits for another thread's commit, and writes what the writer refuses
 * in a transaction of its own.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.NOT_SUPPORTED)
public class MessageSender {

    private static final Logger LOG = Logger.getLogger(MessageSender.class.getName());

    @Inject
    MessageService messages;

    @Inject
    RelayWriter writer;

    @Inject
    Event<MessageQueued> queued;

    /**
     * Sends {@code raw} for {@code caller}: its answer once it is stored. When a concurrent send changed what
     * the read saw (took the id, or mapped the thread first), the unit writes nothing and the send is
     * accepted once more from what is stored now: a repeat of the id then gets its duplicate answer.
     */
    public SendResult send(Caller caller, JsonObject raw) {
        for (int attempt = 1; ; attempt++) {
            MessageService.Accepted accepted = messages.accept(caller, raw);
            if (accepted.rows().isEmpty()) {
                return accepted.result();
            }
            try {
                write(accepted.rows());
            } catch (RaceLost e) {
                if (attempt < 2) {
                    continue;
                }
                throw RedsynException.conflict("the message was not stored: concurrent sends took its id or its thread's "
                        + "session; send it again");
            }
            // no transaction here, so the observers (the receiver's parked polls, webhooks) run at once
            queued.fire(new MessageQueued(accepted.toAgentId()));
            return accepted.result();
        }
    }

    /**
     * Commits the rows as one unit: on the writer, or here when it refuses them (stopping, too much queued).
     * Throws {@link RaceLost} when a concurrent send wrote one of their keys first, a 503 on any other failure.
     */
    private void write(List<GroupedUpdates.Update> rows) throws RaceLost {
        Throwable failure;
        try {
            writer.submitUnit(rows).join();
            return;
        } catch (CompletionException | CancellationException e) {
            failure = e.getCause() != null ? e.getCause() : e;
        }
        if (failure instanceof GroupedUpdates.UnavailableException) {
            try {
                writer.commitNow(rows);
                return;
            } catch (SQLException | RuntimeException e) {
                failure = e;
            }
        }
        if (keyWrittenFirst(failure)) {
            throw new RaceLost();
        }
        LOG.log(Level.WARNING, "redsyn: a request's rows were not written", failure);
        throw new RedsynException(503, "the relay could not store the message; send it again");
    }

    /** Whether the failure is a unique key another transaction wrote first (SQL state class 23). */
    private static boolean keyWrittenFirst(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    /** A unique key of the request's rows was written first by a concurrent send. */
    private static final class RaceLost extends Exception {
        private static final long serialVersionUID = 1L;

        RaceLost() {
            super(null, null, false, false);
        }
    }
}
