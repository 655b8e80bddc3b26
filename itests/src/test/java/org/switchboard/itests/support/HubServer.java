package org.switchboard.itests.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Starts the packaged hub exactly as the README does ({@code server-config/run-hub}), on a free
 * loopback port with its own data directory, and stops it gracefully or with {@code kill -9}.
 * {@code -Dhub.db=postgresql} gives each hub its own database on a PostgreSQL server the tests start
 * ({@link ExternalServices}); {@code -Dhub.broker=external} gives each hub its own ActiveMQ broker
 * process. Both outlive {@link #kill9()} and {@link #restart()}, as real ones would.
 */
public final class HubServer implements AutoCloseable {

    /**
     * JVM options of a hub under test: C1 only and the serial collector halve the CPU a boot costs
     * (about 17 s instead of 34 s) on a 2-core machine, and tests do not need peak speed.
     */
    public static final String TEST_JVM = "-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    /** JVM options of a hub under a benchmark: the full JIT and the throughput collector. */
    public static final String BENCH_JVM = "-Xmx1g -XX:+UseParallelGC";


    private static final AtomicInteger COUNTER = new AtomicInteger();
    /**
     * A closed hub's embedded database file larger than this is deleted ({@link #close}): a benchmark's hub
     * leaves ~1 GB, and a day of runs filled a development machine's disk. The tests' own stay far below.
     */
    static final long KEEP_DATABASE_BELOW_BYTES = 256L * 1024 * 1024;
    /** Held (with a file lock across forks) by a start made while the run has no class-data sharing archive yet. */
    private static final Object FIRST_START = new Object();
    /** Hubs handed out by {@link #shared}, one per distinct environment, stopped when the test JVM exits. */
    private static final Map<String, HubServer> SHARED = new HashMap<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dataDir;
    private final Path log;
    private final int port;
    private final Map<String, String> env;
    /** Trusts the hub's own certificate when it serves TLS ({@code HUB_TLS_KEYSTORE}); null for plain HTTP. */
    private final SSLContext tls;
    private final HttpClient http;
    /** HUB_DB_URL etc. for -Dhub.db / -Dhub.broker, fixed for the hub's life (empty = embedded defaults). */
    private final Map<String, String> services = new HashMap<>();
    private ExternalServices.Broker broker;
    private Process process;
    /** True for a hub from {@link #shared}: several test classes use it, none may stop, kill or restart it. */
    private boolean shared;

    private HubServer(Path dataDir, int port, Map<String, String> env) {
        this.dataDir = dataDir;
        this.port = port;
        this.env = Map.copyOf(env);
        this.tls = env.containsKey("HUB_TLS_KEYSTORE")
                ? trusting(Path.of(env.get("HUB_TLS_KEYSTORE")), env.get("HUB_TLS_KEYSTORE_PASSWORD")) : null;
        this.http = tls == null ? HTTP
                // the connect timeout covers the TLS handshake, slow on a loaded machine
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1)
                        .sslContext(tls).build();
        this.log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
    }

    /** Starts a hub with a fresh data directory and the given extra environment. */
    public static HubServer start(Map<String, String> env) {
        HubServer server = prepare(env);
        server.launch();
        return server;
    }

    /**
     * A hub whose data directory, port and services are fixed but which is not started: {@link #restart}
     * starts it. For a test that needs a peer's address before the peer runs, without booting it twice.
     */
    public static HubServer prepare(Map<String, String> env) {
        return prepare(env, freePort());
    }

    /** As {@link #prepare(Map)} on {@code port} (from {@link #freePort}): for two hubs that name each other. */
    public static HubServer prepare(Map<String, String> env, int port) {
        Path work = Path.of(System.getProperty("hub.workDir", "target/hubs"));
        Path dataDir = work.resolve("hub-" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet());
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HubServer server = new HubServer(dataDir, port, env);
        server.provideServices();
        return server;
    }

    /** Starts a hub with embedded defaults. */
    public static HubServer start() {
        return start(Map.of());
    }

    /**
     * Starts one hub per environment, booting them side by side rather than one after the other (the CI
     * machine has two cores); returns them in the order given. If one fails to start, the others are stopped.
     */
    public static List<HubServer> startAll(List<Map<String, String>> envs) {
        List<CompletableFuture<HubServer>> boots = new ArrayList<>();
        for (Map<String, String> env : envs) {
            boots.add(CompletableFuture.supplyAsync(() -> start(env), runnable -> {
                Thread boot = new Thread(runnable, "hub-boot");
                boot.setDaemon(true);
                boot.start();
            }));
        }
        List<HubServer> hubs = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<HubServer> boot : boots) {
            try {
                hubs.add(boot.join());
            } catch (CompletionException e) {
                failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
        if (failure != null) {
            hubs.forEach(HubServer::close);
            throw failure;
        }
        return hubs;
    }

    /**
     * A hub with the given environment shared by every test class of this JVM (failsafe fork) that asks for
     * the same environment: started on first use, stopped when the JVM exits, so N classes pay one boot.
     * Only for classes that do not depend on a fresh hub (no restart or kill, no absolute counters, no
     * whole-log greps, names unique to the class); {@link #stop} and {@link #close} leave it running, and
     * {@link #kill9}, {@link #restart} and {@link #terminate} refuse. See src/site/markdown/testing.md.
     */
    public static HubServer shared(Map<String, String> env) {
        String key = new TreeMap<>(env).toString();
        synchronized (SHARED) {
            HubServer hub = SHARED.get(key);
            if (hub != null && !hub.isAlive()) {
                throw new IllegalStateException("the shared hub " + key + " has died; see " + hub.log);
            }
            if (hub == null) {
                if (SHARED.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(HubServer::stopShared, "stop-shared-hubs"));
                }
                hub = start(env);
                hub.shared = true;
                SHARED.put(key, hub);
            }
            return hub;
        }
    }

    /** The shared hub with embedded defaults ({@link #shared(Map)}). */
    public static HubServer shared() {
        return shared(Map.of());
    }

    /** True for a hub from {@link #shared}. */
    public boolean isShared() {
        return shared;
    }

    /** At JVM exit: SIGTERM to every shared hub at once, then waits (all in parallel, so exit stays quick). */
    private static void stopShared() {
        List<HubServer> hubs;
        synchronized (SHARED) {
            hubs = new ArrayList<>(SHARED.values());
        }
        for (HubServer hub : hubs) {
            if (hub.isAlive()) {
                hub.process.toHandle().destroy();
            }
        }
        for (HubServer hub : hubs) {
            waitFor(hub.process);
            hub.dropPayaraRoot();
            if (hub.broker != null) {
                hub.broker.close();
            }
        }
    }

    private void refuseIfShared(String what) {
        if (shared) {
            throw new IllegalStateException(what + " on a shared hub: a class that needs it starts its own (HubServer.start)");
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return log;
    }

    /** {@code ws://127.0.0.1:<port>/} ({@code wss://} when the hub serves TLS), the SYNAPSE endpoint. */
    public URI webSocketUri() {
        return URI.create((tls == null ? "ws" : "wss") + "://127.0.0.1:" + port + "/");
    }

    /** An HTTP URI on the hub ({@code https} when it serves TLS), e.g. {@code http("/health")}. */
    public URI http(String path) {
        return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + port + path);
    }

    /** True when the hub was started with a keystore ({@code HUB_TLS_KEYSTORE}) and serves TLS only. */
    public boolean tls() {
        return tls != null;
    }

    /** A client for this hub: one trusting its certificate when it serves TLS (HTTP/1.1, as the hub speaks). */
    public HttpClient httpClient() {
        return http;
    }

    /** The value of the unlabelled metric {@code name} on this hub's {@code /metrics}, read now. */
    public double metric(String name) throws IOException, InterruptedException {
        return metricValue(http.send(HttpRequest.newBuilder(http("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body(), name);
    }

    /** The value of the unlabelled metric {@code name} in a {@code /metrics} text; an AssertionError when absent. */
    public static double metricValue(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " missing from /metrics");
    }

    /** A TLS context trusting exactly the certificates of {@code keystore} (a test's self-signed one). */
    public static SSLContext trusting(Path keystore, String password) {
        try (var in = Files.newInputStream(keystore)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, password.toCharArray());
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (String alias : java.util.Collections.list(keys.aliases())) {
                Certificate certificate = keys.getCertificate(alias);
                if (certificate != null) {
                    trust.setCertificateEntry(alias, certificate);
                }
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test keystore " + keystore, e);
        }
    }

    /** Kills the server process with SIGKILL (no shutdown hooks run) and waits for it to go. */
    public void kill9() {
        refuseIfShared("kill9");
        if (process != null && process.isAlive()) {
            process.toHandle().destroyForcibly();
            waitFor(process);
        }
        dropPayaraRoot();
    }

    /** Stops the server with SIGTERM, as Ctrl-C or an orchestrator would, and waits for it to go. */
    public void stop() {
        if (shared) {
            return; // stopped at JVM exit, after the last class using it
        }
        if (process != null && process.isAlive()) {
            process.toHandle().destroy();
            waitFor(process);
        }
        dropPayaraRoot();
    }

    /**
     * Sends SIGTERM and returns how long the hub took to exit, waiting at most {@code patience}; a hub still
     * alive then is killed with SIGKILL and the returned duration is longer than {@code patience}.
     */
    public Duration terminate(Duration patience) {
        refuseIfShared("terminate");
        if (process == null || !process.isAlive()) {
            return Duration.ZERO;
        }
        long started = System.nanoTime();
        process.toHandle().destroy();
        try {
            if (!process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                return patience.plusMillis(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        dropPayaraRoot();
        return took;
    }

    /**
     * Deletes Payara's configuration and unpacked applications under {@code payara/root} (~40 MB a hub; run-hub
     * copies them afresh on every start) once the hub is down, so a run's hubs do not keep gigabytes in target/.
     */
    private void dropPayaraRoot() {
        Path root = dataDir.resolve("payara").resolve("root");
        if (isAlive() || !Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a leftover only costs disk space
        }
    }

    /**
     * Deletes the closed hub's embedded database files over {@link #KEEP_DATABASE_BELOW_BYTES} (its log stays);
     * {@code -Dhub.keep-databases=true} keeps them.
     */
    private void dropLargeDatabase() {
        Path db = dataDir.resolve("db");
        if (isAlive() || Boolean.getBoolean("hub.keep-databases") || !Files.isDirectory(db)) {
            return;
        }
        try (Stream<Path> files = Files.list(db)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".mv.db")).toList()) {
                long size = Files.size(file);
                if (size > KEEP_DATABASE_BELOW_BYTES) {
                    Files.delete(file);
                    System.out.printf("HubServer: deleted %s (%,d bytes) of the closed hub; -Dhub.keep-databases=true keeps it%n",
                            file, size);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // best effort: a leftover only costs disk space
        }
    }

    /** Starts the server again on the same port and data directory (after {@link #kill9} or {@link #stop}). */
    public void restart() {
        refuseIfShared("restart");
        stop();
        launch();
    }

    /** Process id of the running hub JVM (run-hub exec's java, so it is the launched process). */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        if (shared) {
            return;
        }
        stop();
        dropLargeDatabase();
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    /**
     * The class-data sharing archive every hub of this run maps ({@code HUB_CDS_ARCHIVE} of run-hub): under
     * {@code hub.workDir}, recorded by the run's first hub start, so each later boot skips reading and
     * verifying most of Payara's classes (testing.md, Figures). {@code -Dhub.cds=false} boots without it.
     */
    public static Optional<Path> cdsArchive() {
        if (!Boolean.parseBoolean(System.getProperty("hub.cds", "true"))) {
            return Optional.empty();
        }
        return Optional.of(Path.of(System.getProperty("hub.workDir", "target/hubs")).resolve("cds/hub.jsa")
                .toAbsolutePath());
    }

    /** Which database the hubs of this test run use: {@code h2} (default) or {@code postgresql}. */
    public static String database() {
        return System.getProperty("hub.db", "h2");
    }

    /** Which broker the hubs of this test run use: {@code embedded} (default) or {@code external}. */
    public static String brokerKind() {
        return System.getProperty("hub.broker", "embedded");
    }

    private void provideServices() {
        if (env.containsKey("HUB_DB_URL") || env.containsKey("HUB_BROKER_URL")) {
            return; // the test chose its own
        }
        if (database().equals("postgresql")) {
            services.putAll(ExternalServices.postgres().newDatabase(dataDir.getFileName().toString()));
        }
        if (brokerKind().equals("external")) {
            broker = ExternalServices.startBroker(dataDir.resolveSibling(dataDir.getFileName() + "-broker"));
            services.put("HUB_BROKER_URL", broker.url());
        }
    }

    private void launch() {
        Optional<Path> archive = cdsArchive();
        if (archive.isEmpty() || Files.exists(archive.get()) || Files.exists(Path.of(archive.get() + ".failed"))) {
            launchNow();
            return;
        }
        // No archive yet: the run's first start records it (run-hub) before its hub boots, and hubs that
        // start meanwhile boot without one. So the first starts of every fork queue on one file lock (one
        // JVM-wide mutex first: a fork may start hubs side by side), and only the first records.
        synchronized (FIRST_START) {
            try {
                Files.createDirectories(archive.get().getParent());
                try (FileChannel channel = FileChannel.open(archive.get().resolveSibling("first-start.lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock ignored = channel.lock()) {
                    launchNow();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void launchNow() {
        ProcessBuilder builder = new ProcessBuilder("bash", requiredProperty("hub.runScript"));
        Map<String, String> environment = builder.environment();
        environment.put("HUB_PORT", Integer.toString(port));
        environment.put("HUB_DATA_DIR", dataDir.toString());
        environment.put("HUB_WAR", requiredProperty("hub.war"));
        environment.put("HUB_PAYARA_JAR", requiredProperty("payara.microJar"));
        environment.put("HUB_RAR", requiredProperty("hub.rar"));
        environment.putIfAbsent("HUB_JAVA_OPTS", TEST_JVM);
        cdsArchive().ifPresent(archive -> environment.putIfAbsent("HUB_CDS_ARCHIVE", archive.toString()));
        String runtimeDir = System.getProperty("hub.runtimeDir");
        if (runtimeDir != null) {
            environment.put("HUB_RUNTIME_DIR", runtimeDir); // the PostgreSQL driver is there, no fetch
        }
        environment.putAll(services);
        environment.putAll(env);
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // generous: Payara alone took 150+ s to boot on a 2-core machine at load 25; -Dhub.ready-timeout-seconds= for busier machines
        awaitReady(Duration.ofSeconds(Long.getLong("hub.ready-timeout-seconds", 360)));
    }

    private void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        // The run's first start records the class-data sharing archive before its hub boots (run-hub): while
        // that recording runs the wait restarts, so the boot after it gets the whole timeout (three in all at most).
        Instant latest = deadline.plus(timeout).plus(timeout);
        Path recording = cdsArchive().map(archive -> archive.resolveSibling(archive.getFileName() + ".lock")).orElse(null);
        HttpRequest ready = HttpRequest.newBuilder(http("/mphealth/ready")).timeout(Duration.ofSeconds(2)).build();
        while (Instant.now().isBefore(deadline)) {
            if (recording != null && Files.isDirectory(recording)) {
                Instant restarted = Instant.now().plus(timeout);
                deadline = restarted.isBefore(latest) ? restarted : latest;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("hub exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> response = http.send(ready, HttpResponse.BodyHandlers.ofString());
                // Payara answers readiness before the application is deployed; wait for our own check.
                if (response.statusCode() == 200 && response.body().contains("\"switchboard\"")
                        && response.body().contains("\"UP\"")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(250);
        }
        kill9();
        throw new IllegalStateException("hub not ready within " + timeout + "; see " + log);
    }

    private static void waitFor(Process process) {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String requiredProperty(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set (run through mvn verify)");
        }
        return value;
    }

    /**
     * A free loopback port no other test JVM of this run has taken: failsafe runs IT classes in parallel forks,
     * and a hub binds its port only seconds after the port is chosen, so each port handed out is also claimed
     * as a file under {@code hub.workDir/ports} (atomic create; a port already claimed is skipped).
     */
    public static int freePort() {
        Path claims = Path.of(System.getProperty("hub.workDir", "target/hubs")).resolve("ports");
        try {
            Files.createDirectories(claims);
            for (int attempt = 0; ; attempt++) {
                int port;
                try (ServerSocket socket = new ServerSocket(0)) {
                    socket.setReuseAddress(true);
                    port = socket.getLocalPort();
                }
                try {
                    Files.createFile(claims.resolve(Integer.toString(port)));
                    return port;
                } catch (FileAlreadyExistsException taken) {
                    if (attempt > 1000) {
                        throw new IllegalStateException("no unclaimed free port; clear " + claims);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Environment helper: {@code env("HUB_TOKEN", "s3cret")}. */
    public static Map<String, String> env(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
