package org.switchboard.itests.synapse.coordination;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Reads a stopped hub's journal straight from its H2 file and replays it to check the
 * coordination invariants independently of the hub's own code: no moment with two live holders
 * of overlapping scopes, and no two accepted board writes of the same version. The H2 driver is
 * the one inside the Payara Micro jar the hub ran on, so the file format always matches.
 */
final class JournalAudit {

    /** One journal row. */
    record Event(long seq, String kind, JsonObject payload) {
    }

    /** A live claim as the replay sees it. */
    private record Held(long seq, String taskId, String owner, String worktree, List<String> paths, double until) {
    }

    private JournalAudit() {
    }

    /** Every event of the given kinds, in seq order, from the H2 database at {@code dbDir/switchboard}. */
    static List<Event> read(Path dbDir, List<String> kinds) throws Exception {
        Driver driver = h2Driver();
        Properties auth = new Properties();
        auth.setProperty("user", "sa");
        auth.setProperty("password", "switchboard");
        String in = String.join(",", kinds.stream().map(k -> "?").toList());
        List<Event> events = new ArrayList<>();
        try (Connection c = driver.connect("jdbc:h2:file:" + dbDir.resolve("switchboard") + ";IFEXISTS=TRUE", auth);
             PreparedStatement q = c.prepareStatement(
                     "SELECT seq, kind, payload FROM journal_event WHERE kind IN (" + in + ") ORDER BY seq")) {
            for (int i = 0; i < kinds.size(); i++) {
                q.setString(i + 1, kinds.get(i));
            }
            try (ResultSet rows = q.executeQuery()) {
                while (rows.next()) {
                    events.add(new Event(rows.getLong(1), rows.getString(2), parse(rows.getString(3))));
                }
            }
        }
        return events;
    }

    /**
     * Replays claim-family events and returns every violation: a claim or handoff granted while
     * another owner held a live lease on the same task, or a live claim of another owner on another
     * task with an overlapping scope in the same worktree. Leases end at release or at their
     * {@code lease_expires_at} (checked against the new grant's {@code claimed_at}).
     */
    static List<String> overlappingHolders(List<Event> events) {
        Map<String, Held> live = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        for (Event e : events) {
            JsonObject p = e.payload();
            String taskId = p.getString("task_id", "");
            switch (e.kind()) {
                case "release" -> live.remove(taskId);
                case "claim", "handoff" -> {
                    Held next = held(e);
                    double at = p.getJsonNumber("claimed_at").doubleValue();
                    live.values().removeIf(h -> h.until() <= at);
                    Held same = live.get(taskId);
                    if (same != null && !same.owner().equals(next.owner()) && !"handoff".equals(e.kind())) {
                        violations.add("seq " + e.seq() + ": " + next.owner() + " granted '" + taskId
                                + "' while " + same.owner() + " held it since seq " + same.seq());
                    }
                    for (Held other : live.values()) {
                        if (!other.taskId().equals(taskId) && !other.owner().equals(next.owner())
                                && other.worktree().equals(next.worktree()) && overlap(other.paths(), next.paths())) {
                            violations.add("seq " + e.seq() + ": " + next.owner() + " granted '" + taskId + "' " + next.paths()
                                    + " while " + other.owner() + " held '" + other.taskId() + "' " + other.paths()
                                    + " since seq " + other.seq());
                        }
                    }
                    live.put(taskId, next);
                }
                case "task_update", "checkpoint" -> live.computeIfPresent(taskId, (k, h) -> held(e));
                default -> { }
            }
        }
        return violations;
    }

    /**
     * For each board task: the accepted writes ({@code ledger_task} events) must carry versions
     * 1, 2, 3, … in journal order, each exactly once. Two writes accepted against the same
     * expected version would show up as a repeated or skipped version.
     */
    static List<String> boardVersionViolations(List<Event> events) {
        Map<String, Long> last = new HashMap<>();
        List<String> violations = new ArrayList<>();
        for (Event e : events) {
            if (!"ledger_task".equals(e.kind())) {
                continue;
            }
            String taskId = e.payload().getString("task_id", "");
            long version = e.payload().getJsonNumber("version").longValue();
            long expected = last.getOrDefault(taskId, 0L) + 1;
            if (version != expected) {
                violations.add("seq " + e.seq() + ": task '" + taskId + "' version " + version + " after v" + (expected - 1));
            }
            last.put(taskId, Math.max(version, expected - 1));
        }
        return violations;
    }

    /** Number of {@code ledger_task} events of one task. */
    static long boardWrites(List<Event> events, String taskId) {
        return events.stream().filter(e -> "ledger_task".equals(e.kind())
                && taskId.equals(e.payload().getString("task_id", ""))).count();
    }

    /** The spec's overlap rule (§9.4), written independently: equal, whole tree, or a segment prefix. */
    static boolean overlap(List<String> a, List<String> b) {
        for (String x : a) {
            for (String y : b) {
                if (x.isEmpty() || y.isEmpty() || x.equals(y) || x.startsWith(y + "/") || y.startsWith(x + "/")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Held held(Event e) {
        JsonObject p = e.payload();
        List<String> paths = new ArrayList<>();
        for (JsonValue v : p.getJsonArray("paths")) {
            paths.add(((JsonString) v).getString());
        }
        return new Held(e.seq(), p.getString("task_id"), p.getString("owner"), p.getString("worktree", ""), paths,
                p.getJsonNumber("lease_expires_at").doubleValue());
    }

    private static JsonObject parse(String text) {
        try (JsonReader r = Json.createReader(new StringReader(text))) {
            return r.readObject();
        }
    }

    private static Driver h2Driver() throws Exception {
        Path jar = Path.of(System.getProperty("hub.workDir", "target/hubs")).resolve("h2-from-payara.jar");
        if (!Files.exists(jar)) {
            extractH2(Path.of(System.getProperty("payara.microJar")), jar);
        }
        URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        return (Driver) Class.forName("org.h2.Driver", true, loader).getDeclaredConstructor().newInstance();
    }

    private static void extractH2(Path payara, Path target) throws IOException {
        try (JarFile jar = new JarFile(payara.toFile())) {
            ZipEntry entry = jar.getEntry("MICRO-INF/runtime/h2.jar");
            if (entry == null) {
                throw new IOException("no H2 driver inside " + payara);
            }
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), "h2", ".jar");
            try (InputStream in = jar.getInputStream(entry)) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
