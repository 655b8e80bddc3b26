package org.switchboard.itests.journal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Opens a stopped hub's embedded H2 database directly, as an operator would, with the very H2
 * driver Payara Micro ships (taken out of the Micro jar), so no database dependency is added to
 * the tests and the file format always matches the server's.
 */
public final class OfflineDatabase {

    private static Driver driver;

    private OfflineDatabase() {
    }

    /** A connection to the H2 file of a hub whose process is not running. */
    public static Connection open(Path dataDir) throws SQLException {
        return openUrl("jdbc:h2:file:" + dataDir.resolve("db/switchboard").toAbsolutePath());
    }

    /** A connection to any H2 URL with the hub's default credentials (used by the journal micro benchmark). */
    public static Connection openUrl(String url) throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", "sa");
        credentials.setProperty("password", "switchboard");
        return driver().connect(url, credentials);
    }

    private static synchronized Driver driver() {
        if (driver == null) {
            Path micro = Path.of(System.getProperty("payara.microJar"));
            Path jar = micro.resolveSibling("payara-micro-h2.jar");
            try (ZipFile zip = new ZipFile(micro.toFile())) {
                ZipEntry entry = zip.getEntry("MICRO-INF/runtime/h2.jar");
                if (entry == null) {
                    throw new IllegalStateException("no H2 driver inside " + micro);
                }
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
                }
                URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                        OfflineDatabase.class.getClassLoader());
                driver = (Driver) loader.loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return driver;
    }
}
