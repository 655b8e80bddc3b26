package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.journal.OfflineDatabase;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * Data at rest: everything the hub and its launcher write under the data directory is owner-only
 * (files 0600, directories 0700), and the database password is in no generated file nor the log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AtRestIT {

    /** A password that cannot occur by chance in any file, so finding it means it was written out. */
    private static final String PASSWORD = "at-rest-Pw-7c41e9";
    private static final Set<PosixFilePermission> GROUP_OR_OTHER = Set.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private static HubServer hub;

    @BeforeAll
    static void start() {
        // a custom HUB_DB_PASSWORD: the H2 file is created with it, and the restart below must open it again
        hub = HubServer.start(HubServer.env("HUB_DB_PASSWORD", PASSWORD));
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "alice")) {
            alice.send(SynapseClient.frame("chat", "all", "written to the journal").add("client_msg_id", "rest-1"));
            assertEquals(1, historyOf(alice, "rest-1"), "the chat reached the history");
        }
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    @Test
    @Order(1)
    void dataTreeIsOwnerOnly() throws IOException {
        List<String> exposed = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(hub.dataDir())) {
            paths.forEach(path -> {
                try {
                    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
                    String name = hub.dataDir().relativize(path) + (Files.isDirectory(path) ? "/" : "");
                    seen.add(name);
                    if (mode.stream().anyMatch(GROUP_OR_OTHER::contains)) {
                        exposed.add(name + " " + PosixFilePermissions.toString(mode));
                    }
                } catch (IOException e) {
                    exposed.add(path + " unreadable: " + e);
                }
            });
        }
        assertTrue(seen.stream().anyMatch(n -> n.startsWith("db/") && n.endsWith(".mv.db")), "no H2 file: " + seen);
        assertTrue(seen.stream().anyMatch(n -> n.startsWith("broker/") && !n.endsWith("/")), "no broker file: " + seen);
        assertTrue(seen.contains("payara/post-boot.asadmin"), "no post-boot command file: " + seen);
        assertTrue(exposed.isEmpty(), "readable or writable beyond the owner: " + exposed);
    }

    @Test
    @Order(2)
    void passwordIsInNoGeneratedFileNorTheLog() throws IOException {
        List<String> leaking = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(hub.dataDir().resolve("payara"))) {
            for (Path file : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
                if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(PASSWORD)) {
                    leaking.add(hub.dataDir().relativize(file).toString());
                }
            }
        }
        assertTrue(leaking.isEmpty(), "database password written in clear to " + leaking);
        assertFalse(Files.readString(hub.logFile(), StandardCharsets.ISO_8859_1).contains(PASSWORD),
                "database password in the hub log " + hub.logFile());
    }

    @Test
    @Order(3)
    void restartedHubOpensItsDatabaseWithThePasswordFromTheEnvironment() {
        hub.restart(); // readiness includes the database check, so a wrong password fails here
        try (SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "bob")) {
            assertEquals(1, historyOf(bob, "rest-1"), "the chat journalled before the restart is still there");
        }
    }

    @Test
    @Order(4)
    void theDatabaseWasCreatedWithThePasswordFromTheEnvironment() throws Exception {
        // a reference Payara did not resolve would have become the password itself: open the file as an operator
        hub.stop();
        try (Connection connection = connect(PASSWORD)) {
            assertTrue(connection.isValid(5));
        }
        SQLException refused = null;
        try (Connection connection = connect("switchboard")) {
            assertFalse(connection.isValid(5), "the default password must not open a database created with " + PASSWORD);
        } catch (SQLException e) {
            refused = e;
        }
        assertTrue(refused != null, "the default password opened the database");
    }

    /** The stopped hub's H2 file, opened with Payara's own H2 driver and the given password for {@code sa}. */
    private static Connection connect(String password) throws Exception {
        Method driverOf = OfflineDatabase.class.getDeclaredMethod("driver");
        driverOf.setAccessible(true);
        Driver driver = (Driver) driverOf.invoke(null);
        Properties credentials = new Properties();
        credentials.setProperty("user", "sa");
        credentials.setProperty("password", password);
        Connection connection = driver.connect("jdbc:h2:file:" + hub.dataDir().resolve("db/switchboard").toAbsolutePath()
                + ";IFEXISTS=TRUE", credentials);
        if (connection == null) {
            throw new SQLException("driver refused the URL");
        }
        return connection;
    }

    /** History entries with this client_msg_id, asking again for a while: the chat is journalled asynchronously. */
    private static int historyOf(SynapseClient client, String clientMsgId) {
        int found = 0;
        for (int attempt = 0; attempt < 20 && found == 0; attempt++) {
            client.send(SynapseClient.frame("history_request", "System", "history").add("history_client_msg_id", clientMsgId));
            found = client.expect(f -> "history_snapshot".equals(f.getString("type", "")), Duration.ofSeconds(10))
                    .getJsonArray("history").size();
            if (found == 0) {
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return found;
    }
}
