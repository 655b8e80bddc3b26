package org.switchboard.itests.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A full application server (WildFly or Payara Server) unpacked by Maven, prepared with the project's
 * own {@code server-config/setup-*} script, started with the EAR deployed and stopped again, with the
 * part of its log that each start wrote.
 */
public abstract class AppServer implements AutoCloseable {

    /** A stack frame line as both servers log it ({@code at pkg.Class.method(File.java:1)}). */
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s+at \\S+\\(.*\\)\\s*$");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    /** JVM options of the test servers: a faster start on a small machine (C1 only, serial GC). */
    static final String TEST_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    /** Generous: a loaded 2-core CI machine took minutes to boot and deploy. */
    private static final Duration BOOT = Duration.ofSeconds(600);

    protected final Path home;
    protected final Path dataDir;
    protected final Path work;
    protected final int port;
    protected final int adminPort;
    protected final Map<String, String> env;
    private long logOffset;
    private boolean firstStart;
    private final List<String> timings = new ArrayList<>();

    protected AppServer(Path home, String name, Map<String, String> env) {
        this.home = home;
        this.work = Path.of(System.getProperty("hub.workDir", "target/hubs"));
        this.dataDir = work.resolve(name + "-" + ProcessHandle.current().pid());
        this.port = freePort();
        this.adminPort = freePort();
        this.env = Map.copyOf(env);
    }

    /** WildFly 39 from {@code appserver.wildfly.home}, prepared by {@code server-config/setup-wildfly}. */
    public static AppServer wildFly(Map<String, String> env) {
        return new WildFly(Path.of(requiredProperty("appserver.wildfly.home")), env);
    }

    /** Payara Server 6 from {@code appserver.payara.home}, prepared by {@code server-config/setup-payara-server}. */
    public static AppServer payaraServer(Map<String, String> env) {
        return new PayaraServer(Path.of(requiredProperty("appserver.payara.home")), env);
    }

    /** Runs the setup script with the test's HUB_* environment (a fresh data directory and free ports). */
    public AppServer setUp() {
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The fresh start's log begins with the setup (which deploys the EAR on Payara Server).
        try {
            Files.deleteIfExists(serverLog());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        firstStart = true;
        Path script = Path.of(requiredProperty("hub.runScript")).resolveSibling(setupScript());
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), home.toString());
        environment(builder.environment());
        builder.environment().put("HUB_EAR", requiredProperty("hub.ear"));
        builder.environment().put("HUB_RAR", requiredProperty("hub.rar"));
        Instant began = Instant.now();
        run(builder, work.resolve(dataDir.getFileName() + "-setup.log"), Duration.ofSeconds(900));
        took("setup script", began);
        return this;
    }

    /** Starts the server and waits until the application answers and reports itself ready. */
    public void start() {
        Path log = serverLog();
        try {
            logOffset = firstStart || !Files.exists(log) ? 0 : Files.size(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        firstStart = false;
        Instant began = Instant.now();
        launch();
        Instant deadline = began.plus(BOOT);
        while (Instant.now().isBefore(deadline)) {
            if (ready()) {
                took("start until ready", began);
                return;
            }
            sleep(2000); // WildFly logs a WARN line for every readiness poll answered DOWN
        }
        stop();
        throw new IllegalStateException(getClass().getSimpleName() + " not ready within " + BOOT + "; see " + log);
    }

    /** Stops the server and waits until it is gone. */
    public void stop() {
        Instant began = Instant.now();
        if (halt()) {
            took("stop", began);
        }
    }

    /** Stops the server if it runs and waits until it is gone; false when it was not running. */
    protected abstract boolean halt();

    /** What each phase took so far, in order, e.g. {@code setup script 41.2 s}. */
    public List<String> timings() {
        return List.copyOf(timings);
    }

    /**
     * The server's own readiness endpoint (MicroProfile Health), status and body: where an orchestrator
     * sees whether the application is ready.
     */
    public abstract String serverReadiness();

    private void took(String phase, Instant began) {
        String line = String.format(java.util.Locale.ROOT, "%s %.1f s", phase,
                Duration.between(began, Instant.now()).toMillis() / 1000.0);
        timings.add(line);
        System.out.println(getClass().getSimpleName() + " timing: " + line);
    }

    /** Stops and starts the server; {@link #logSinceStart} then covers the stop as well as the start. */
    public void restart() {
        long offset;
        try {
            offset = Files.exists(serverLog()) ? Files.size(serverLog()) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stop();
        start();
        logOffset = offset;
    }

    @Override
    public void close() {
        stop();
    }

    public int port() {
        return port;
    }

    /** {@code ws://127.0.0.1:<port>/}, the SYNAPSE endpoint. */
    public URI webSocketUri() {
        return URI.create("ws://127.0.0.1:" + port + "/");
    }

    /** An HTTP URI on the application port, e.g. {@code http("/health")}. */
    public URI http(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The server's log file. */
    public abstract Path serverLog();

    /** The lines the server logged since the last {@link #start} (the first: since {@link #setUp}). */
    public List<String> logSinceStart() {
        try {
            byte[] all = Files.readAllBytes(serverLog());
            int from = (int) Math.min(logOffset, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stack frame lines logged since the last start, each with the line before the trace began. */
    public List<String> stackTracesSinceStart() {
        List<String> lines = logSinceStart();
        List<String> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (STACK_FRAME.matcher(lines.get(i)).matches()) {
                int head = i;
                while (head > 0 && (STACK_FRAME.matcher(lines.get(head - 1)).matches()
                        || lines.get(head - 1).startsWith("Caused by"))) {
                    head--;
                }
                found.add((head > 0 ? lines.get(head - 1) + " | " : "") + lines.get(i).trim());
                while (i + 1 < lines.size() && STACK_FRAME.matcher(lines.get(i + 1)).matches()) {
                    i++;
                }
            }
        }
        return found;
    }

    /** GET on the application port; status and body. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(http(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    protected abstract String setupScript();

    protected abstract void launch();

    /** True when the server's readiness endpoint answers UP with the application's check UP. */
    protected boolean ready() {
        String health = serverReadiness();
        return health.startsWith("200 ") && applicationChecks(health).stream()
                .anyMatch(check -> "UP".equals(check.getString("status", "")));
    }

    /** The checks named "switchboard" (the application's readiness) in a "STATUS BODY" health answer. */
    public static List<jakarta.json.JsonObject> applicationChecks(String health) {
        int body = health.indexOf(' ');
        if (body < 0) {
            return List.of();
        }
        try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new java.io.StringReader(health.substring(body + 1)))) {
            return reader.readObject().getJsonArray("checks").getValuesAs(jakarta.json.JsonObject.class).stream()
                    .filter(check -> "switchboard".equals(check.getString("name", ""))).toList();
        } catch (RuntimeException e) {
            return List.of(); // not (yet) a health document, e.g. the server's 404 page during boot
        }
    }

    /** The environment of the setup script and the server: the test's, plus ports and data directory. */
    protected void environment(Map<String, String> target) {
        target.put("HUB_PORT", Integer.toString(port));
        target.put("HUB_ADMIN_PORT", Integer.toString(adminPort));
        target.put("HUB_DATA_DIR", dataDir.toString());
        // Both servers keep only a reference to the password and read it from their environment at start.
        target.put("HUB_DB_PASSWORD", "switchboard");
        // the test servers only (setup-payara-server writes them into the domain; WildFly: launch)
        target.put("HUB_JAVA_OPTS", TEST_JVM);
        target.putAll(env);
    }

    protected static String body(URI uri) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected static void run(ProcessBuilder builder, Path log, Duration timeout) {
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            Process process = builder.start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(builder.command() + " did not finish in " + timeout + "; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(builder.command() + " exited with " + process.exitValue() + "; see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected static String requiredProperty(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set (run through mvn verify)");
        }
        return value;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    protected static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Environment helper: {@code env("REDSYN_ADMIN_TOKEN", "s3cret")}. */
    public static Map<String, String> env(String... keyValues) {
        return HubServer.env(keyValues);
    }

    /** WildFly started as {@code standalone.sh -c switchboard.xml}; stopped with SIGTERM (graceful shutdown). */
    private static final class WildFly extends AppServer {
        private Process process;

        WildFly(Path home, Map<String, String> env) {
            super(home, "wildfly", env);
        }

        @Override
        protected String setupScript() {
            return "setup-wildfly";
        }

        @Override
        public Path serverLog() {
            return home.resolve("standalone/log/server.log");
        }

        @Override
        protected void launch() {
            ProcessBuilder builder = new ProcessBuilder("bash", home.resolve("bin/standalone.sh").toString(),
                    "-c", "switchboard.xml");
            environment(builder.environment());
            // the test server only: standalone.conf's heap plus a faster start (C1 only, serial GC)
            builder.environment().put("JBOSS_JAVA_SIZING", "-Xms64m -Xmx512m " + TEST_JVM);
            builder.redirectErrorStream(true);
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(
                    work.resolve(dataDir.getFileName() + "-console.log").toFile()));
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        protected boolean ready() {
            if (!process.isAlive()) {
                throw new IllegalStateException("WildFly exited with " + process.exitValue() + "; see " + serverLog());
            }
            return super.ready();
        }

        @Override
        public String serverReadiness() {
            // WildFly's MicroProfile Health on the management port (setup-wildfly)
            return body(URI.create("http://127.0.0.1:" + adminPort + "/health/ready"));
        }

        @Override
        protected boolean halt() {
            if (process != null && process.isAlive()) {
                // SIGTERM to the JVM (a child of standalone.sh) is WildFly's own graceful shutdown; the
                // script may exit first, so the JVM itself is waited for.
                List<ProcessHandle> jvms = process.toHandle().descendants().toList();
                jvms.forEach(ProcessHandle::destroy);
                process.destroy();
                try {
                    for (ProcessHandle jvm : jvms) {
                        jvm.onExit().get(120, TimeUnit.SECONDS);
                    }
                    process.waitFor(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    jvms.forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
            return false;
        }
    }

    /** Payara Server's domain "switchboard", started and stopped with asadmin. */
    private static final class PayaraServer extends AppServer {
        private boolean started;

        PayaraServer(Path home, Map<String, String> env) {
            super(home, "payara-server", env);
        }

        @Override
        protected String setupScript() {
            return "setup-payara-server";
        }

        @Override
        public Path serverLog() {
            return home.resolve("glassfish/domains/switchboard/logs/server.log");
        }

        @Override
        protected void launch() {
            asadmin(Duration.ofSeconds(600), "start-domain", "switchboard");
            started = true;
        }

        @Override
        public String serverReadiness() {
            // Payara's MicroProfile Health, moved to /mphealth by setup-payara-server
            return body(http("/mphealth/ready"));
        }

        @Override
        protected boolean halt() {
            if (started) {
                started = false;
                asadmin(Duration.ofSeconds(180), "stop-domain", "switchboard");
                return true;
            }
            return false;
        }

        private void asadmin(Duration timeout, String... args) {
            List<String> command = new ArrayList<>(List.of("bash", home.resolve("bin/asadmin").toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command);
            environment(builder.environment());
            run(builder, work.resolve(dataDir.getFileName() + "-asadmin.log"), timeout);
        }
    }
}
