package org.switchboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Parameter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.switchboard.redsyn.plan.Plan;
import org.switchboard.redsyn.plan.PlanTable;
import org.switchboard.synapse.hub.SynapseConfig;

/**
 * Keeps src/site/markdown/configuration.md the reference of every configuration key: each key the
 * code reads (every {@code @ConfigProperty} of the compiled classes, every literal
 * {@code ConfigProvider} lookup in the sources, and the {@code redsyn.plans.*} keys of the built-in
 * plans) must have a table row there with its environment name and its default.
 */
class ConfigurationDocsTest {

    /** The default cell of a key without a default starts with this word. */
    private static final String NO_DEFAULT = "unset";
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z][a-z0-9.-]*)`\\s*\\|(.*)$");
    private static final Pattern FIRST_CODE = Pattern.compile("^`([^`]*)`");
    private static final Pattern LOOKUP = Pattern.compile("get(?:Optional)?Value\\(\\s*\"([^\"]+)\"");

    private static Path classes;
    private static Path repo;
    private static Map<String, Row> documented;

    /** One row of a key table: environment and default cells as written. */
    record Row(String key, String environment, String defaultCell) {
    }

    @BeforeAll
    static void read() throws IOException, URISyntaxException {
        classes = Path.of(SynapseConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        repo = classes;
        while (repo != null && !Files.exists(repo.resolve("src/site/markdown/configuration.md"))) {
            repo = repo.getParent();
        }
        assertTrue(repo != null, "configuration.md not found above " + classes);
        documented = rows(Files.readAllLines(repo.resolve("src/site/markdown/configuration.md")));
    }

    /** The key rows of every table in the page, by key; a key documented twice fails. */
    static Map<String, Row> rows(List<String> lines) {
        Map<String, Row> rows = new TreeMap<>();
        for (String line : lines) {
            Matcher m = ROW.matcher(line.trim());
            if (!m.matches()) {
                continue;
            }
            String[] cells = m.group(2).split("\\|");
            assertTrue(cells.length >= 3, "a key row needs key | environment | default | meaning: " + line);
            String env = cells[0].trim().replace("`", "");
            Row row = new Row(m.group(1), env, cells[1].trim());
            assertTrue(rows.put(row.key(), row) == null, "documented twice: " + row.key());
        }
        return rows;
    }

    @Test
    void everyKeyTheCodeReadsIsDocumentedWithItsEnvironmentNameAndDefault() throws Exception {
        Map<String, String> keys = keysInCode();
        assertTrue(keys.containsKey("hub.token") && keys.containsKey("redsyn.admin.token")
                && keys.containsKey("hub.journal.sync-interval-ms") && keys.containsKey("redsyn.plans.free.agents"),
                "the scan found too little: " + keys.keySet());
        List<String> problems = new ArrayList<>();
        keys.forEach((key, def) -> {
            Row row = documented.get(key);
            if (row == null) {
                problems.add(key + ": not in configuration.md (default " + shown(def) + ", environment " + env(key) + ")");
                return;
            }
            if (!row.environment().equals(env(key))) {
                problems.add(key + ": environment documented as " + row.environment() + ", is " + env(key));
            }
            String documentedDefault = documentedDefault(row.defaultCell());
            if (!java.util.Objects.equals(documentedDefault, def)) {
                problems.add(key + ": default documented as " + shown(documentedDefault) + ", code says " + shown(def));
            }
        });
        assertTrue(problems.isEmpty(), "configuration.md is out of date:\n  " + String.join("\n  ", problems));
    }

    @Test
    void everyDocumentedKeyIsReadByTheCode() throws Exception {
        Map<String, String> keys = keysInCode();
        TreeSet<String> stale = new TreeSet<>(documented.keySet());
        stale.removeAll(keys.keySet());
        assertTrue(stale.isEmpty(), "configuration.md documents keys the code does not read: " + stale);
    }

    @Test
    void aRowMissingFromThePageIsReported() {
        Map<String, Row> page = rows(List.of(
                "| Key | Environment | Default | Meaning |",
                "| --- | --- | --- | --- |",
                "| `hub.max-clients` | `HUB_MAX_CLIENTS` | `256` | 4013 ceiling |",
                "| `hub.token` | `HUB_TOKEN` | unset (open hub) | shared token |"));
        assertEquals("256", documentedDefault(page.get("hub.max-clients").defaultCell()));
        assertEquals(null, documentedDefault(page.get("hub.token").defaultCell()));
        assertFalse(page.containsKey("hub.history-limit"));
        assertEquals("HUB_RATE_LIMIT_PER_HOST_BURST", env("hub.rate-limit.per-host-burst"));
    }

    /** Default cell: {@code `value`} and optional prose, or "unset …" (no default, returned as null). */
    static String documentedDefault(String cell) {
        if (cell.startsWith(NO_DEFAULT)) {
            return null;
        }
        Matcher m = FIRST_CODE.matcher(cell);
        return m.find() ? m.group(1) : "<no `value` in '" + cell + "'>";
    }

    /** The environment name MicroProfile Config maps a key to. */
    static String env(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static String shown(String def) {
        return def == null ? NO_DEFAULT : "`" + def + "`";
    }

    /** Every key the code reads, with its effective default (null: none). */
    static Map<String, String> keysInCode() throws IOException {
        Map<String, String> keys = new TreeMap<>();
        List<String> unreadable = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(file).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                try {
                    annotated(Class.forName(name, false, ConfigurationDocsTest.class.getClassLoader()), keys);
                } catch (LinkageError | ClassNotFoundException e) {
                    unreadable.add(name + ": " + e);
                }
            }
        }
        assertTrue(unreadable.isEmpty(), "classes the scan could not read: " + unreadable);
        sourceLookups(keys);
        plans(keys);
        // microprofile-config.properties in the WAR overrides annotation defaults.
        try (InputStream in = ConfigurationDocsTest.class.getResourceAsStream("/META-INF/microprofile-config.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
                p.stringPropertyNames().forEach(k -> keys.put(k, p.getProperty(k)));
            }
        }
        return keys;
    }

    private static void annotated(Class<?> type, Map<String, String> keys) {
        for (Field f : type.getDeclaredFields()) {
            add(f, keys, type.getName() + "." + f.getName());
        }
        List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredConstructors()));
        executables.addAll(List.of(type.getDeclaredMethods()));
        for (Executable e : executables) {
            for (Parameter p : e.getParameters()) {
                add(p, keys, type.getName() + "." + e.getName());
            }
        }
    }

    private static void add(AnnotatedElement element, Map<String, String> keys, String where) {
        ConfigProperty c = element.getAnnotation(ConfigProperty.class);
        if (c == null) {
            return;
        }
        assertFalse(c.name().isEmpty(), where + ": @ConfigProperty without a name");
        String def = ConfigProperty.UNCONFIGURED_VALUE.equals(c.defaultValue()) ? null : c.defaultValue();
        if (keys.containsKey(c.name()) && !java.util.Objects.equals(keys.get(c.name()), def)) {
            fail(c.name() + " is read with two defaults: " + shown(keys.get(c.name())) + " and " + shown(def)
                    + " (" + where + ")");
        }
        keys.put(c.name(), def);
    }

    /** Literal keys looked up through ConfigProvider / Config in the sources (no default in code). */
    private static void sourceLookups(Map<String, String> keys) throws IOException {
        Path sources = repo.resolve("war/src/main/java");
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String text = Files.readString(file);
                if (!text.contains("org.eclipse.microprofile.config.Config")) {
                    continue;
                }
                Matcher m = LOOKUP.matcher(text);
                while (m.find()) {
                    keys.putIfAbsent(m.group(1), null);
                }
            }
        }
    }

    /** The redsyn.plans.&lt;plan&gt;.&lt;limit&gt; keys of the built-in plans, defaulting to the document's table. */
    private static void plans(Map<String, String> keys) {
        for (String plan : List.of("free", "pro", "enterprise")) {
            Plan p = Plan.named(plan);
            for (String limit : PlanTable.KEYS) {
                long value = switch (limit) {
                    case "messages-per-day" -> p.messagesPerDay();
                    case "file-bytes" -> p.filesPendingBytes();
                    case "ttl-max-seconds" -> p.maxTtlSeconds();
                    case "agents" -> p.agents();
                    case "links" -> p.links();
                    case "webhooks" -> p.webhooks();
                    default -> throw new AssertionError("plan limit " + limit + " is new: map it here and document it");
                };
                keys.put(PlanTable.PREFIX + plan + "." + limit, Long.toString(value));
            }
        }
    }
}
