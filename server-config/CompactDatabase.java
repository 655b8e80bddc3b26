import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Compacts the hub's embedded H2 database while the hub is stopped: H2's {@code SHUTDOWN COMPACT}
 * rewrites the live data into a fresh file. Run through {@code server-config/compact-db}, which puts
 * Payara Micro's own H2 on the class path. The credentials come from the environment, never from
 * the command line, so they do not show in the process list.
 */
public final class CompactDatabase {

    private CompactDatabase() {
    }

    /** Argument: the database path without {@code .mv.db}; exit 0 = compacted or nothing to do, 1 = refused. */
    public static void main(String[] args) throws Exception {
        Path base = Path.of(args[0]);
        Path file = Path.of(base + ".mv.db");
        if (!Files.exists(file)) {
            System.err.println("compact-db: no database at " + file + "; nothing to compact");
            return;
        }
        String user = env("HUB_DB_USER", "sa");
        String password = env("HUB_DB_PASSWORD", "switchboard");
        long before = Files.size(file);
        long started = System.nanoTime();
        // IFEXISTS: never create an empty database by mistake; a running hub holds the file lock.
        String url = "jdbc:h2:file:" + base + ";IFEXISTS=TRUE;DB_CLOSE_ON_EXIT=FALSE";
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN COMPACT");
        } catch (SQLException e) {
            System.err.println("compact-db: refused (" + e.getMessage().lines().findFirst().orElse("") + ")."
                    + " Stop the hub first; the database must not be in use.");
            System.exit(1);
        }
        long after = Files.size(file);
        System.err.printf("compact-db: %s compacted from %,d to %,d bytes in %.1f s%n",
                file, before, after, (System.nanoTime() - started) / 1e9);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
