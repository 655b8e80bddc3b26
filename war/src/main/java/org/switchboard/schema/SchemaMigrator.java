package org.switchboard.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings a database to the newest schema version with the scripts of its vendor's folder: a new
 * database gets V1 onwards; one made by EclipseLink's DDL generation (before versioned scripts)
 * is recorded as version 1 and gets V2 onwards.
 */
public final class SchemaMigrator {

    /** Where the scripts live, one folder per database vendor. */
    public static final String LOCATION_ROOT = "db/migration/";
    /** The version a database made by the old DDL generation is taken to be at. */
    public static final String BASELINE_VERSION = "1";

    private final ClassLoader scripts;
    private final String[] locationRoots;

    /** Reads the scripts from {@code scripts}, the application's class loader. */
    public SchemaMigrator(ClassLoader scripts) {
        this(scripts, LOCATION_ROOT);
    }

    /** Reads the scripts of every {@code <root><vendor>} folder (tests add a folder of their own). */
    public SchemaMigrator(ClassLoader scripts, String... locationRoots) {
        this.scripts = scripts;
        this.locationRoots = locationRoots.clone();
    }

    /** What a migration did: the vendor folder used, the version before and after, scripts applied. */
    public record Outcome(String vendor, String from, String to, int applied, boolean baselined) {
    }

    /**
     * The script folder for a JDBC {@code DatabaseMetaData.getDatabaseProductName()}: {@code h2} or
     * {@code postgresql}. Other databases are refused, since no scripts are written for them.
     */
    public static String vendorFolder(String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("h2")) {
            return "h2";
        }
        if (name.contains("postgres")) {
            return "postgresql";
        }
        throw new IllegalStateException("no schema scripts for database '" + productName
                + "'; supported: H2, PostgreSQL");
    }

    /** Applies every pending script to {@code dataSource} and says what it did. */
    public Outcome migrate(DataSource dataSource) throws SQLException {
        String vendor;
        try (Connection connection = dataSource.getConnection()) {
            vendor = vendorFolder(connection.getMetaData().getDatabaseProductName());
        }
        Flyway flyway = Flyway.configure(scripts)
                .dataSource(dataSource)
                .locations(java.util.Arrays.stream(locationRoots).map(root -> "classpath:" + root + vendor)
                        .toArray(String[]::new))
                // A database with tables but no history table was made by EclipseLink's DDL
                // generation, whose schema V1 reproduces: record it as V1 instead of running V1.
                .baselineOnMigrate(true)
                .baselineVersion(BASELINE_VERSION)
                .baselineDescription("schema made by EclipseLink DDL generation")
                .cleanDisabled(true)
                .load();
        MigrationInfo before = flyway.info().current();
        MigrateResult result = flyway.migrate();
        MigrationInfo after = flyway.info().current();
        boolean baselined = before == null && after != null && flyway.info().applied().length > 0
                && flyway.info().applied()[0].getType().isBaseline();
        return new Outcome(vendor, before == null ? "none" : before.getVersion().getVersion(),
                after == null ? "none" : after.getVersion().getVersion(), result.migrationsExecuted, baselined);
    }
}
