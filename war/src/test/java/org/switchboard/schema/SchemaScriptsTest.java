package org.switchboard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.UniqueConstraint;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The H2 scripts against the JPA entities (every table, column, NOT NULL, length, sequence, index and
 * unique key an {@code @Entity} declares exists after V1..Vn, and no script table or column lacks its
 * entity), and Flyway's behaviour on a new database, a restart and a database made by the old DDL.
 */
class SchemaScriptsTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static JdbcDataSource freshDatabase() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:schema-test-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        ds.setPassword("");
        return ds;
    }

    private static SchemaMigrator migrator(String... roots) {
        return new SchemaMigrator(SchemaScriptsTest.class.getClassLoader(),
                roots.length == 0 ? new String[] {SchemaMigrator.LOCATION_ROOT} : roots);
    }

    @Test
    void vendorFolderFollowsTheJdbcProductName() {
        assertEquals("h2", SchemaMigrator.vendorFolder("H2"));
        assertEquals("postgresql", SchemaMigrator.vendorFolder("PostgreSQL"));
        assertThrows(IllegalStateException.class, () -> SchemaMigrator.vendorFolder("MySQL"));
    }

    @Test
    void aNewDatabaseGetsEveryScriptAndARestartChangesNothing() throws SQLException {
        JdbcDataSource ds = freshDatabase();
        SchemaMigrator.Outcome first = migrator().migrate(ds);
        assertEquals("h2", first.vendor());
        assertEquals("none", first.from());
        assertEquals(latestH2Version(), first.to());
        assertEquals(h2ScriptCount(), first.applied());
        assertFalse(first.baselined());

        SchemaMigrator.Outcome restart = migrator().migrate(ds);
        assertEquals(first.to(), restart.from());
        assertEquals(0, restart.applied(), "a restart ran scripts again");
    }

    @Test
    void theScriptsMakeEveryTableColumnSequenceAndKeyTheEntitiesMap() throws Exception {
        JdbcDataSource ds = freshDatabase();
        migrator().migrate(ds);
        List<String> problems = new ArrayList<>();
        Set<String> mappedTables = new HashSet<>();
        try (Connection connection = ds.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            Map<String, Long> sequences = sequences(connection);
            for (Class<?> entity : entityClasses()) {
                String table = tableName(entity);
                mappedTables.add(table);
                Map<String, ColumnInfo> columns = columns(meta, table);
                if (columns.isEmpty()) {
                    problems.add(entity.getSimpleName() + ": table " + table + " is in no script");
                    continue;
                }
                Set<String> mappedColumns = new HashSet<>();
                Map<String, Set<List<String>>> indexes = indexes(meta, table, false);
                Set<Set<String>> uniqueKeys = new HashSet<>();
                indexes(meta, table, true).values().forEach(keys -> keys.forEach(k -> uniqueKeys.add(new HashSet<>(k))));
                for (Field field : persistentFields(entity)) {
                    String column = columnName(field);
                    mappedColumns.add(column);
                    ColumnInfo info = columns.get(column);
                    String where = entity.getSimpleName() + "." + field.getName() + " (" + table + "." + column + ")";
                    if (info == null) {
                        problems.add(where + ": column is in no script");
                        continue;
                    }
                    Column c = field.getAnnotation(Column.class);
                    boolean notNull = field.isAnnotationPresent(Id.class) || (c != null && !c.nullable());
                    if (notNull && info.nullable) {
                        problems.add(where + ": the entity says NOT NULL, the script allows NULL");
                    }
                    if (field.getType() == String.class && !field.isAnnotationPresent(Lob.class)) {
                        int length = c == null ? 255 : c.length();
                        if (info.size < length) {
                            problems.add(where + ": length " + info.size + " in the script, " + length + " in the entity");
                        }
                    }
                    if (c != null && c.unique() && !uniqueKeys.contains(Set.of(column))) {
                        problems.add(where + ": the entity says unique, the script has no unique key on it");
                    }
                    SequenceGenerator generator = field.getAnnotation(SequenceGenerator.class);
                    if (generator != null) {
                        String name = generator.sequenceName().toUpperCase(Locale.ROOT);
                        Long increment = sequences.get(name);
                        if (increment == null) {
                            problems.add(where + ": sequence " + name + " is in no script");
                        } else if (increment != generator.allocationSize()) {
                            problems.add(where + ": sequence " + name + " increments by " + increment
                                    + ", the entity allocates " + generator.allocationSize());
                        }
                    }
                }
                for (String column : columns.keySet()) {
                    if (!mappedColumns.contains(column)) {
                        problems.add(entity.getSimpleName() + ": column " + table + "." + column
                                + " of the scripts is mapped by no field");
                    }
                }
                Table t = entity.getAnnotation(Table.class);
                if (t != null) {
                    for (Index index : t.indexes()) {
                        List<String> wanted = columnList(index.columnList());
                        Set<List<String>> found = indexes.get(index.name().toUpperCase(Locale.ROOT));
                        if (found == null || !found.contains(wanted)) {
                            problems.add(entity.getSimpleName() + ": index " + index.name() + " on " + wanted
                                    + " is in no script (found " + found + ")");
                        }
                    }
                    for (UniqueConstraint unique : t.uniqueConstraints()) {
                        Set<String> wanted = new HashSet<>();
                        for (String name : unique.columnNames()) {
                            wanted.add(name.toUpperCase(Locale.ROOT));
                        }
                        if (!uniqueKeys.contains(wanted)) {
                            problems.add(entity.getSimpleName() + ": unique key " + wanted + " is in no script");
                        }
                    }
                }
            }
            for (String table : tables(meta)) {
                if (!mappedTables.contains(table) && !table.equalsIgnoreCase("flyway_schema_history")) {
                    problems.add("table " + table + " of the scripts is mapped by no entity");
                }
            }
        }
        assertTrue(problems.isEmpty(), "the schema scripts and the entities disagree:\n  " + String.join("\n  ", problems));
    }

    @Test
    void aDatabaseMadeByTheOldDdlIsRecordedAsVersionOneAndGetsLaterScriptsWithItsData() throws Exception {
        JdbcDataSource ds = freshDatabase();
        try (Connection connection = ds.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(resource("/schema/eclipselink-ddl-h2.sql"));
            statement.execute("INSERT INTO JOURNAL_SETTING (SETTING_NAME, SETTING_VALUE) VALUES ('hub_id', 'h-1')");
            statement.execute("INSERT INTO JOURNAL_EVENT (SEQ, KIND, PAYLOAD, APPENDED_AT) VALUES (7, 'chat', '{}', 1.5)");
        }
        SchemaMigrator.Outcome outcome = migrator(SchemaMigrator.LOCATION_ROOT, "db/upgrade-test/").migrate(ds);
        assertTrue(outcome.baselined(), "the old tables were not recorded as version 1: " + outcome);
        // the stand-in is V900, after every real script (V2 onwards also run, each once)
        long realAfterV1;
        try (Stream<Path> scripts = Files.list(Path.of(SchemaMigrator.class.getResource("/db/migration/h2").toURI()))) {
            realAfterV1 = scripts.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")
                    && !f.getFileName().toString().startsWith("V1__")).count();
        }
        assertEquals("900", outcome.to());
        assertEquals(realAfterV1 + 1, outcome.applied(), "V1 ran on tables that exist, or V900 did not run: " + outcome);
        try (Connection connection = ds.getConnection(); Statement statement = connection.createStatement()) {
            try (ResultSet rs = statement.executeQuery("SELECT upgrade_note FROM journal_setting WHERE setting_name = 'hub_id'")) {
                assertTrue(rs.next());
                assertEquals("kept: h-1", rs.getString(1));
            }
            try (ResultSet rs = statement.executeQuery("SELECT kind FROM journal_event WHERE seq = 7")) {
                assertTrue(rs.next(), "a journal row of the old database was lost");
                assertEquals("chat", rs.getString(1));
            }
            try (ResultSet rs = statement.executeQuery(
                    "SELECT \"version\", \"type\" FROM \"flyway_schema_history\" WHERE \"version\" IS NOT NULL"
                            + " ORDER BY \"installed_rank\"")) {
                assertTrue(rs.next());
                assertEquals("1", rs.getString(1));
                assertEquals("BASELINE", rs.getString(2));
                String last = null;
                while (rs.next()) {
                    assertEquals("SQL", rs.getString(2));
                    last = rs.getString(1);
                }
                assertEquals("900", last);
            }
        }
        SchemaMigrator.Outcome restart = migrator(SchemaMigrator.LOCATION_ROOT, "db/upgrade-test/").migrate(ds);
        assertEquals(0, restart.applied());
    }

    // --- the entities, by reflection over the compiled classes -------------------------------------

    private static List<Class<?>> entityClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(SchemaMigrator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> entities = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                if (name.contains("$") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, SchemaScriptsTest.class.getClassLoader());
                if (type.isAnnotationPresent(Entity.class)) {
                    entities.add(type);
                }
            }
        }
        assertTrue(entities.size() >= 20, "found only " + entities.size() + " entities under " + root);
        return entities;
    }

    private static String tableName(Class<?> entity) {
        Table table = entity.getAnnotation(Table.class);
        String name = table != null && !table.name().isEmpty() ? table.name() : entity.getSimpleName();
        return name.toUpperCase(Locale.ROOT);
    }

    private static List<Field> persistentFields(Class<?> entity) {
        List<Field> fields = new ArrayList<>();
        for (Field field : entity.getDeclaredFields()) {
            int m = field.getModifiers();
            if (!Modifier.isStatic(m) && !Modifier.isTransient(m) && !field.isAnnotationPresent(Transient.class)
                    && !field.isSynthetic()) {
                fields.add(field);
            }
        }
        return fields;
    }

    private static String columnName(Field field) {
        Column column = field.getAnnotation(Column.class);
        String name = column != null && !column.name().isEmpty() ? column.name() : field.getName();
        return name.toUpperCase(Locale.ROOT);
    }

    private static List<String> columnList(String list) {
        List<String> columns = new ArrayList<>();
        for (String part : list.split(",")) {
            columns.add(part.trim().split("\\s+")[0].toUpperCase(Locale.ROOT));
        }
        return columns;
    }

    // --- the database, through JDBC metadata ---------------------------------------------------------

    private record ColumnInfo(int size, boolean nullable) {
    }

    private static Set<String> tables(DatabaseMetaData meta) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (ResultSet rs = meta.getTables(null, "PUBLIC", "%", new String[] {"TABLE", "BASE TABLE"})) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME").toUpperCase(Locale.ROOT));
            }
        }
        return tables;
    }

    private static Map<String, ColumnInfo> columns(DatabaseMetaData meta, String table) throws SQLException {
        Map<String, ColumnInfo> columns = new TreeMap<>();
        try (ResultSet rs = meta.getColumns(null, "PUBLIC", table, "%")) {
            while (rs.next()) {
                columns.put(rs.getString("COLUMN_NAME").toUpperCase(Locale.ROOT),
                        new ColumnInfo(rs.getInt("COLUMN_SIZE"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls));
            }
        }
        return columns;
    }

    /** Index name → its column lists (unique only, or all), from the driver's index metadata. */
    private static Map<String, Set<List<String>>> indexes(DatabaseMetaData meta, String table, boolean uniqueOnly)
            throws SQLException {
        Map<String, TreeMap<Integer, String>> byName = new HashMap<>();
        try (ResultSet rs = meta.getIndexInfo(null, "PUBLIC", table, uniqueOnly, false)) {
            while (rs.next()) {
                String name = rs.getString("INDEX_NAME");
                if (name != null) {
                    byName.computeIfAbsent(name.toUpperCase(Locale.ROOT), n -> new TreeMap<>())
                            .put((int) rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME").toUpperCase(Locale.ROOT));
                }
            }
        }
        Map<String, Set<List<String>>> result = new HashMap<>();
        byName.forEach((name, cols) -> result.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(List.copyOf(cols.values())));
        return result;
    }

    private static Map<String, Long> sequences(Connection connection) throws SQLException {
        Map<String, Long> sequences = new HashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT SEQUENCE_NAME, INCREMENT FROM INFORMATION_SCHEMA.SEQUENCES")) {
            while (rs.next()) {
                sequences.put(rs.getString(1).toUpperCase(Locale.ROOT), rs.getLong(2));
            }
        }
        return sequences;
    }

    // --- the scripts --------------------------------------------------------------------------------

    private static List<String> h2Scripts() throws IOException, URISyntaxException {
        Path folder = Path.of(SchemaMigrator.class.getResource("/" + SchemaMigrator.LOCATION_ROOT + "h2").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql")).sorted().toList();
        }
    }

    private static int h2ScriptCount() {
        try {
            return h2Scripts().size();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String latestH2Version() {
        try {
            return h2Scripts().stream().map(n -> n.substring(1, n.indexOf("__"))).max((a, b) -> Integer.compare(
                    Integer.parseInt(a), Integer.parseInt(b))).orElseThrow();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SchemaScriptsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
