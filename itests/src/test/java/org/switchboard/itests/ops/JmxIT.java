package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
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
 * Remote JMX as an operator uses it (issue 19): run-hub opens the JDK agent on loopback with a
 * password file, every operator MBean is readable over the wire, a force-release made over JMX frees
 * a SYNAPSE client's claim and leaves an {@code operator_action} event with the JMX user in the
 * journal; no credentials, a wrong password and a read-only user are refused, and run-hub refuses
 * to open the port without a password file.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JmxIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String CONTROL_PASSWORD = "ctl-" + System.nanoTime();
    private static final String MONITOR_PASSWORD = "mon-" + System.nanoTime();
    private static final List<String> BEANS = List.of("org.switchboard:type=Synapse,name=Roster",
            "org.switchboard:type=Synapse,name=Claims", "org.switchboard:type=Synapse,name=Mailbox",
            "org.switchboard:type=Synapse,name=Delivery", "org.switchboard:type=Synapse,name=Forwards",
            "org.switchboard:type=Journal,name=Journal", "org.switchboard:type=Redsyn,name=Inbox",
            "org.switchboard:type=Redsyn,name=Webhooks", "org.switchboard:type=Redsyn,name=Plans");

    private static HubServer hub;
    private static int jmxPort;
    private static Path secrets;

    @BeforeAll
    static void start() throws Exception {
        secrets = Files.createTempDirectory(Path.of(System.getProperty("hub.workDir", "target/hubs")).toAbsolutePath()
                .getParent(), "jmx-");
        Path password = secrets.resolve("jmxremote.password");
        Files.writeString(password, "controlRole " + CONTROL_PASSWORD + "\nmonitorRole " + MONITOR_PASSWORD + "\n");
        Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
        Path access = secrets.resolve("jmxremote.access");
        Files.writeString(access, "controlRole readwrite\nmonitorRole readonly\n");
        jmxPort = freePort();
        // a message peer nobody listens on (a claimed port no hub takes): a chat to it stays a pending forward
        hub = HubServer.start(HubServer.env("HUB_JMX_PORT", Integer.toString(jmxPort),
                "HUB_JMX_PASSWORD_FILE", password.toString(), "HUB_JMX_ACCESS_FILE", access.toString(),
                "HUB_MESSAGE_PEERS", "hub-z=ws://127.0.0.1:" + freePort() + "/"));
    }

    @AfterAll
    static void stop() {
        if (hub != null) {
            hub.stop();
        }
    }

    private static JMXConnector connect(String user, String password) throws Exception {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
        Map<String, Object> env = user == null ? Map.of() : Map.of(JMXConnector.CREDENTIALS, new String[] {user, password});
        return JMXConnectorFactory.connect(url, env);
    }

    private static JsonObject claimFrame(String taskId) {
        return SynapseClient.frame("claim", "System", "").add("task_id", taskId)
                .add("paths", Json.createArrayBuilder().add("jmx/" + taskId)).add("ttl_seconds", 900).build();
    }

    @Test
    @Order(1)
    void unauthenticatedAndWrongPasswordAreRefused() {
        assertThrows(SecurityException.class, () -> connect(null, null).close());
        assertThrows(SecurityException.class, () -> connect("controlRole", "not-" + CONTROL_PASSWORD).close());
        assertThrows(SecurityException.class, () -> connect("nobody", CONTROL_PASSWORD).close());
    }

    @Test
    @Order(2)
    void everyMBeanIsReadable() throws Exception {
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "jmx/reader");
             JMXConnector jmx = connect("monitorRole", MONITOR_PASSWORD)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            for (String bean : BEANS) {
                ObjectName name = new ObjectName(bean);
                MBeanAttributeInfo[] attributes = server.getMBeanInfo(name).getAttributes();
                assertTrue(attributes.length > 0, bean);
                for (MBeanAttributeInfo attribute : attributes) {
                    server.getAttribute(name, attribute.getName()); // throws when a view fails in the hub
                }
            }
            CompositeData[] connections = (CompositeData[]) server.getAttribute(
                    new ObjectName("org.switchboard:type=Synapse,name=Roster"), "Connections");
            assertTrue(List.of(connections).stream().anyMatch(c -> "jmx/reader".equals(c.get("name"))),
                    List.of(connections).toString());
            assertTrue((Long) server.getAttribute(new ObjectName("org.switchboard:type=Journal,name=Journal"), "LastSeq") >= 0);
            assertTrue((Long) server.getAttribute(new ObjectName("org.switchboard:type=Journal,name=Journal"), "SizeBytes") > 0);
            assertTrue((Long) server.getAttribute(new ObjectName("org.switchboard:type=Journal,name=Journal"), "ReplayMillis") >= 0);
        }
    }

    @Test
    @Order(3)
    void theDeliveryAndForwardQueuesShowWhatAClientLeftPending() throws Exception {
        String token = "7".repeat(64);
        String incarnation = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        try (SynapseClient builder = SynapseClient.register(hub.webSocketUri(), "jmx/builder", Json.createObjectBuilder()
                        .add("protocol_version", 3).add("delivery_session_token", token)
                        .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")).build());
             SynapseClient planner = SynapseClient.register(hub.webSocketUri(), "jmx/planner",
                     Json.createObjectBuilder().add("protocol_version", 3).build());
             // requestStatus is an operation, and the JDK's access file lets only readwrite users invoke any
             JMXConnector jmx = connect("controlRole", CONTROL_PASSWORD)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            planner.send(SynapseClient.frame("delivery_request", "jmx/builder", "").add("protocol_version", 3)
                    .add("request_id", "rq-jmx").add("idempotency_key", "ik-jmx").add("target_incarnation", incarnation)
                    .add("mode", "follow_up").add("task_id", "T-jmx").add("body", "left queued by JmxIT")
                    .add("deadline", Math.floor(System.currentTimeMillis() / 1000.0) + 3000.5));
            JsonObject queued = planner.expect(f -> "delivery_status".equals(f.getString("type", "")) && !f.containsKey("audience"), WAIT);
            String key = queued.getString("operation_key");
            builder.expect(f -> "delivery_offer".equals(f.getString("type", "")), WAIT);

            ObjectName delivery = new ObjectName("org.switchboard:type=Synapse,name=Delivery");
            CompositeData status = (CompositeData) server.invoke(delivery, "requestStatus", new Object[] {key},
                    new String[] {"java.lang.String"});
            assertEquals("queued", status.get("stage"));
            assertEquals("jmx/planner", status.get("sender"));
            assertEquals("jmx/builder", status.get("target"));
            CompositeData[] open = (CompositeData[]) server.getAttribute(delivery, "OldestOpenRequests");
            assertTrue(List.of(open).stream().anyMatch(r -> key.equals(r.get("operationKey"))), List.of(open).toString());
            javax.management.openmbean.TabularData byStage =
                    (javax.management.openmbean.TabularData) server.getAttribute(delivery, "OpenByStage");
            assertTrue((Integer) byStage.get(new Object[] {"queued"}).get("value") >= 1, byStage.toString());

            planner.send(SynapseClient.frame("chat", "jmx/bob@hub-z", "to a peer that is down").add("receipt_requested", true));
            JsonObject receipt = planner.expect(f -> "delivery_receipt".equals(f.getString("type", ""))
                    && "pending".equals(f.getString("forward_state", "")), WAIT);
            String forwardId = receipt.getString("forward_id");
            ObjectName forwards = new ObjectName("org.switchboard:type=Synapse,name=Forwards");
            CompositeData[] pending = (CompositeData[]) server.getAttribute(forwards, "PendingForwards");
            CompositeData mine = List.of(pending).stream().filter(f -> forwardId.equals(f.get("forwardId"))).findFirst()
                    .orElseThrow(() -> new AssertionError("forward " + forwardId + " not listed: " + List.of(pending)));
            assertEquals("hub-z", mine.get("peer"));
            assertEquals("jmx/bob@hub-z", mine.get("target"));
            assertEquals("pending", mine.get("state"));
            assertTrue((Double) mine.get("expiresAt") > (Double) mine.get("createdAt"), mine.toString());
            CompositeData[] peers = (CompositeData[]) server.getAttribute(forwards, "PendingByPeer");
            assertTrue(List.of(peers).stream().anyMatch(p -> "hub-z".equals(p.get("peer")) && (Long) p.get("pending") >= 1),
                    List.of(peers).toString());
            assertTrue((Long) server.getAttribute(forwards, "Pending") >= 1);
        }
    }

    @Test
    @Order(3)
    void aReadOnlyUserCannotForceRelease() throws Exception {
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "jmx/ro");
             JMXConnector jmx = connect("monitorRole", MONITOR_PASSWORD)) {
            alice.send(claimFrame("jmx-ro"));
            alice.expect(f -> "claim_granted".equals(f.getString("type", "")), WAIT);
            assertThrows(SecurityException.class, () -> jmx.getMBeanServerConnection().invoke(
                    new ObjectName("org.switchboard:type=Synapse,name=Claims"), "forceRelease",
                    new Object[] {"jmx-ro", "not allowed"}, new String[] {"java.lang.String", "java.lang.String"}));
        }
    }

    @Test
    @Order(4)
    void forceReleaseFreesTheClaimAndIsJournalledWithTheJmxUser() throws Exception {
        ObjectName claims = new ObjectName("org.switchboard:type=Synapse,name=Claims");
        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "jmx/alice");
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "jmx/bob");
             JMXConnector jmx = connect("controlRole", CONTROL_PASSWORD)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            alice.send(claimFrame("jmx-1"));
            alice.expect(f -> "claim_granted".equals(f.getString("type", "")), WAIT);
            CompositeData[] live = (CompositeData[]) server.getAttribute(claims, "Claims");
            assertTrue(List.of(live).stream().anyMatch(c -> "jmx-1".equals(c.get("taskId")) && "jmx/alice".equals(c.get("owner"))),
                    List.of(live).toString());

            // a missing reason is refused and releases nothing
            Exception refused = assertThrows(Exception.class, () -> server.invoke(claims, "forceRelease",
                    new Object[] {"jmx-1", " "}, new String[] {"java.lang.String", "java.lang.String"}));
            // typed for the remote client (a JDK IllegalArgumentException with the operator's sentence), not an EJB system failure
            Throwable root = root(refused);
            assertEquals(IllegalArgumentException.class, root.getClass(), refused.toString());
            assertEquals("a reason is required", root.getMessage());

            Object owner = server.invoke(claims, "forceRelease", new Object[] {"jmx-1", "stuck in JmxIT"},
                    new String[] {"java.lang.String", "java.lang.String"});
            assertEquals("jmx/alice", owner);
            JsonObject told = alice.expect(f -> "release_granted".equals(f.getString("type", ""))
                    && "jmx-1".equals(f.getString("task_id", "")), WAIT);
            assertTrue(told.getBoolean("released_by_operator"), told.toString());

            bob.send(claimFrame("jmx-1"));
            JsonObject granted = bob.expect(f -> f.getString("type", "").startsWith("claim_"), WAIT);
            assertEquals("claim_granted", granted.getString("type"), granted.toString());
        }
        hub.stop();
        List<JsonObject> audits = new ArrayList<>();
        try (Connection db = OfflineDatabase.open(hub.dataDir());
             PreparedStatement q = db.prepareStatement("SELECT payload FROM journal_event WHERE kind = 'operator_action' ORDER BY seq");
             ResultSet rows = q.executeQuery()) {
            while (rows.next()) {
                try (JsonReader reader = Json.createReader(new StringReader(rows.getString(1)))) {
                    audits.add(reader.readObject());
                }
            }
        }
        JsonObject audit = audits.stream().filter(a -> "synapse.claims.force_release".equals(a.getString("operation")))
                .findFirst().orElse(null);
        assertNotNull(audit, audits.toString());
        assertEquals("jmx:controlRole", audit.getString("principal"));
        assertEquals("jmx-1", audit.getString("target"));
        assertEquals("stuck in JmxIT", audit.getString("reason"));
        assertEquals(1, audits.size(), "the refused attempts journalled nothing: " + audits);
        // an operator's bad input is an application exception: the container logs no system failure for it
        String log = java.nio.file.Files.readString(hub.logFile());
        assertFalse(log.contains("EJBException") || log.contains("OperatorRefusal"),
                "the refused force-release was logged as a failure");
    }

    @Test
    @Order(0)
    void theConsoleIsNotFoundWithoutAnOperatorToken() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        for (String path : List.of("/console/", "/console", "/console/console.js", "/console/api/session", "/console/api/claims")) {
            var response = http.send(java.net.http.HttpRequest.newBuilder(hub.http(path)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(404, response.statusCode(), path);
        }
        var login = http.send(java.net.http.HttpRequest.newBuilder(hub.http("/console/api/login"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"token\":\"\"}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(404, login.statusCode());
    }

    @Test
    @Order(6)
    void runHubRefusesJmxWithoutAPasswordFile() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", System.getProperty("hub.runScript"));
        builder.environment().put("HUB_PORT", Integer.toString(freePort()));
        builder.environment().put("HUB_DATA_DIR", secrets.resolve("refused").toString());
        builder.environment().put("HUB_WAR", System.getProperty("hub.war"));
        builder.environment().put("HUB_PAYARA_JAR", System.getProperty("payara.microJar"));
        builder.environment().put("HUB_RAR", System.getProperty("hub.rar"));
        builder.environment().put("HUB_JMX_PORT", Integer.toString(freePort()));
        builder.environment().remove("HUB_JMX_PASSWORD_FILE");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "run-hub did not exit");
        String output = new String(process.getInputStream().readAllBytes());
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains("refusing to open JMX without authentication"), output);
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static int freePort() {
        return HubServer.freePort(); // claimed across the parallel failsafe forks
    }
}
