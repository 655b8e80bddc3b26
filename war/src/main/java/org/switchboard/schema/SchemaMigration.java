package org.switchboard.schema;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Applies the schema scripts to {@code jdbc/switchboard} when the application starts. Beans that
 * read the database at start-up call {@link #ensureCurrent()} first, which waits for it.
 */
@Singleton
@Startup
// Flyway commits each script itself: a container transaction around it would forbid that.
@TransactionManagement(TransactionManagementType.BEAN)
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    private SchemaMigrator.Outcome outcome;

    @PostConstruct
    void migrate() {
        long started = System.nanoTime();
        try {
            outcome = new SchemaMigrator(SchemaMigration.class.getClassLoader()).migrate(dataSource);
        } catch (SQLException e) {
            throw new IllegalStateException("schema: cannot read the database: " + e.getMessage(), e);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        SchemaMigrator.Outcome o = outcome;
        LOG.info(() -> "schema: " + o.vendor() + " database at version " + o.to()
                + (o.baselined() ? " (tables made by an earlier release recorded as version "
                        + SchemaMigrator.BASELINE_VERSION + ")" : "")
                + ", " + o.applied() + " script(s) applied in " + millis + " ms");
    }

    /**
     * Runs before the application's own start-up observers (they start sweeps that query the
     * database), whichever order the container starts singletons and fires the event in.
     */
    public void beforeOtherStartupObservers(
            @Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) @Initialized(ApplicationScoped.class) Object ignored) {
        ensureCurrent();
    }

    /**
     * Returns once the schema is current. The container runs {@link #migrate()} before the first
     * call reaches this singleton, so calling it orders the caller after the migration.
     */
    public SchemaMigrator.Outcome ensureCurrent() {
        return outcome;
    }
}
