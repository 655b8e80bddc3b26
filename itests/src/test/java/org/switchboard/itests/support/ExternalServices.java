package org.switchboard.itests.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The servers a hub can use instead of its embedded ones, started by the tests on 127.0.0.1: one
 * PostgreSQL server per test JVM (the system's binaries, {@code /usr/lib/postgresql/<v>/bin}, in a
 * temporary directory; run as the {@code postgres} user when the tests run as root, which initdb
 * refuses) with a database per hub, and an ActiveMQ broker process per hub ({@code activemq-all}
 * from Maven). All are stopped when the JVM exits.
 */
public final class ExternalServices {

    private static final String DB_USER = "switchboard";
    private static final String DB_PASSWORD = "it-db-password";
    private static Postgres postgres;

    private ExternalServices() {
    }

    /** The JVM's PostgreSQL server, started on first use. */
    public static synchronized Postgres postgres() {
        if (postgres == null) {
            postgres = Postgres.start();
            Runtime.getRuntime().addShutdownHook(new Thread(postgres::stop, "postgres-stop"));
        }
        return postgres;
    }

    /** A PostgreSQL server in a temporary directory, reachable over TCP on loopback only. */
    public static final class Postgres {

        private final Path bin;
        private final Path dir;
        private final int port;
        private final boolean asPostgresUser;

        private Postgres(Path bin, Path dir, int port, boolean asPostgresUser) {
            this.bin = bin;
            this.dir = dir;
            this.port = port;
            this.asPostgresUser = asPostgresUser;
        }

        static Postgres start() {
            Path bin = findBinaries();
            boolean root = "root".equals(System.getProperty("user.name"));
            try {
                Path dir = Files.createTempDirectory("switchboard-it-pg");
                Path pwfile = dir.resolve("pw");
                Files.writeString(pwfile, DB_PASSWORD + "\n");
                if (root) {
                    run(List.of("chown", "-R", "postgres", dir.toString()));
                }
                Postgres server = new Postgres(bin, dir, freePort(), root);
                server.pg("initdb", "-D", dir.resolve("data").toString(), "-U", DB_USER, "-E", "UTF8",
                        "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=" + pwfile);
                server.pg("pg_ctl", "-D", dir.resolve("data").toString(), "-l", dir.resolve("server.log").toString(),
                        "-w", "-t", "120", "-o", "-p " + server.port + " -c listen_addresses=127.0.0.1 -k " + dir, "start");
                return server;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Creates an empty database and returns the run-hub environment that points a hub at it. */
        public Map<String, String> newDatabase(String name) {
            String db = name.replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(java.util.Locale.ROOT);
            pg("createdb", "-h", dir.toString(), "-p", Integer.toString(port), "-U", DB_USER, db);
            return Map.of("HUB_DB_URL", "jdbc:postgresql://127.0.0.1:" + port + "/" + db,
                    "HUB_DB_USER", DB_USER, "HUB_DB_PASSWORD", DB_PASSWORD);
        }

        void stop() {
            try {
                pg("pg_ctl", "-D", dir.resolve("data").toString(), "-m", "fast", "-w", "stop");
            } catch (RuntimeException e) {
                System.err.println("postgres stop: " + e.getMessage());
            }
        }

        private void pg(String program, String... args) {
            List<String> command = new ArrayList<>();
            if (asPostgresUser) {
                command.addAll(List.of("runuser", "-u", "postgres", "--"));
            }
            command.add(bin.resolve(program).toString());
            command.addAll(List.of(args));
            run(command);
        }

        private static Path findBinaries() {
            String configured = System.getProperty("hub.pgBin");
            if (configured != null && !configured.isBlank()) {
                return Path.of(configured);
            }
            try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
                return versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparing(b -> b.getParent().getFileName().toString()))
                        .orElseThrow(() -> new IllegalStateException("no PostgreSQL binaries under /usr/lib/postgresql"
                                + " (Debian package postgresql; .ci/run installs it)"));
            } catch (IOException e) {
                throw new IllegalStateException("no PostgreSQL binaries under /usr/lib/postgresql"
                        + " (Debian package postgresql; .ci/run installs it)", e);
            }
        }
    }

    /** Starts an ActiveMQ broker process (persistent store and scheduler in {@code dataDir}) for one hub. */
    public static Broker startBroker(Path dataDir) {
        String jar = System.getProperty("hub.activemqAll");
        if (jar == null) {
            throw new IllegalStateException("system property hub.activemqAll is not set (run through mvn verify)");
        }
        int port = freePort();
        String uri = "broker:(tcp://127.0.0.1:" + port + ")?brokerName=it" + port + "&useJmx=false&persistent=true"
                + "&schedulerSupport=true&dataDirectory=" + dataDir;
        ProcessBuilder builder = new ProcessBuilder("java", "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar, "start", uri);
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolveSibling(dataDir.getFileName() + ".log").toFile()));
        try {
            Process process = builder.start();
            Broker broker = new Broker(process, "tcp://127.0.0.1:" + port);
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "broker-stop"));
            broker.awaitListening(port, Duration.ofSeconds(120));
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A broker process and the URL hubs reach it at. */
    public record Broker(Process process, String url) implements AutoCloseable {

        void awaitListening(int port, Duration timeout) {
            Instant deadline = Instant.now().plus(timeout);
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker exited with " + process.exitValue());
                }
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                    return;
                } catch (IOException e) {
                    sleep(250);
                }
            }
            close();
            throw new IllegalStateException("broker not listening on " + port + " within " + timeout);
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                process.destroy();
                try {
                    if (!process.waitFor(30, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static void run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        return HubServer.freePort(); // claimed across the parallel failsafe forks
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
