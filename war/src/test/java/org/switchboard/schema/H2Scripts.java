package org.switchboard.schema;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;

/** The shipped H2 migration scripts for tests that build a schema by hand, found by version, not by a list kept in each test. */
public final class H2Scripts {

    private static final String FOLDER = "/db/migration/h2/";
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");

    private H2Scripts() {
    }

    /** An empty in-memory H2 database named {@code name}, kept until the JVM ends (each test picks its own name). */
    public static JdbcDataSource memory(String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        return ds;
    }

    /** The text of one script, by its file name. */
    public static String script(String fileName) throws IOException {
        try (InputStream in = H2Scripts.class.getResourceAsStream(FOLDER + fileName)) {
            if (in == null) {
                throw new IOException("no H2 migration script " + fileName);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The file name of the script of {@code version}. */
    public static String fileName(int version) throws IOException {
        List<String> names = versions().stream().filter(n -> version(n) == version).toList();
        if (names.size() != 1) {
            throw new IOException("expected one H2 migration script of version " + version + ", found " + names);
        }
        return names.get(0);
    }

    /** Runs the script of {@code version} alone. */
    public static void apply(Statement statement, int version) throws IOException, SQLException {
        statement.execute(script(fileName(version)));
    }

    /** Runs every script from V1 up to and including {@code version}, in version order. */
    public static void applyThrough(Statement statement, int version) throws IOException, SQLException {
        applyRange(statement, 1, version);
    }

    /** Runs the scripts of versions {@code from} to {@code through} (both included), in version order. */
    private static void applyRange(Statement statement, int from, int through) throws IOException, SQLException {
        List<String> names = versions().stream().filter(n -> version(n) >= from && version(n) <= through).toList();
        if (names.isEmpty() || version(names.get(names.size() - 1)) != through) {
            throw new IOException("no H2 migration script of version " + through + " (have " + versions() + ")");
        }
        for (String name : names) {
            statement.execute(script(name));
        }
    }

    private static int version(String fileName) {
        Matcher m = VERSIONED.matcher(fileName);
        if (!m.matches()) {
            throw new IllegalArgumentException(fileName);
        }
        return Integer.parseInt(m.group(1));
    }

    private static List<String> versions() throws IOException {
        Path folder;
        try {
            folder = Path.of(H2Scripts.class.getResource(FOLDER).toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> VERSIONED.matcher(n).matches())
                    .sorted(Comparator.comparingInt(H2Scripts::version)).toList();
        }
    }
}
