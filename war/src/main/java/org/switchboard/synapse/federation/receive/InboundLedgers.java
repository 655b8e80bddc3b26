package org.switchboard.synapse.federation.receive;

import jakarta.enterprise.inject.spi.CDI;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.switchboard.journal.Journal;

/**
 * Finds the durable inbound ledger: on a journal that writes side rows, the
 * {@link JournalInboundLedger} (records ride the journal's group commit); else the container's
 * {@link JpaInboundLedger}, looked up here because the hub core is built by constructors; outside a
 * container (unit tests) it lives in memory.
 */
public final class InboundLedgers {

    private static final Logger LOG = Logger.getLogger(InboundLedgers.class.getName());

    private InboundLedgers() {
    }

    /** The ledger for a hub with {@code journal} (null: none). */
    public static InboundLedger resolve(Journal journal) {
        if (journal != null && journal.writesSideRows()) {
            try {
                return new JournalInboundLedger(journal, (DataSource) new InitialContext().lookup("jdbc/switchboard"),
                        InboundLedgers::loadInBackground);
            } catch (NamingException | RuntimeException e) {
                LOG.fine("SYNAPSE inbound forward ledger: no jdbc/switchboard data source; trying the JPA ledger");
            }
        }
        return resolve();
    }

    /** Runs the ledger's one read of its stored keys on a thread of its own, so the hub's start does not wait. */
    private static void loadInBackground(Runnable load) {
        Thread t = new Thread(load, "synapse-inbound-ledger-keys");
        t.setDaemon(true);
        t.start();
    }

    /** The container's JPA ledger, or a memory one when there is no CDI container or database. */
    public static InboundLedger resolve() {
        try {
            var found = CDI.current().select(JpaInboundLedger.class);
            if (found.isResolvable()) {
                return found.get();
            }
        } catch (IllegalStateException e) {
            // no CDI container: a unit test building the hub by hand
        }
        LOG.fine("SYNAPSE inbound forward ledger kept in memory only (no database)");
        return InboundLedger.memory();
    }
}
