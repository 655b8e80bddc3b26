package org.switchboard.itests.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.support.SecuredHub.ownerOnly;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SecuredHub;
import org.switchboard.itests.support.SynapseClient;
import org.switchboard.itests.synapse.federation.PeerCertificates;

/**
 * Native TLS and the secrets grep (issue 17) on one packaged hub (plus one packaged origin for mutual
 * TLS): run-hub with a PKCS12 keystore the test generates ({@code HUB_TLS_KEYSTORE}/
 * {@code HUB_TLS_KEYSTORE_PASSWORD}), {@code hub.posture=paranoid} with its material (token, HMAC key
 * file, ACL policy) and no proxy declaration, and every secret the hub takes configured. SYNAPSE over
 * {@code wss://} (a chat, a signed claim), REDSYN and {@code /health} over {@code https://}, plain
 * {@code ws://}/{@code http://} refused on the port, the container shortcuts still engaged (their writes
 * go through the TLS filter, or the chat above would not arrive), and then every secret's value searched
 * for in the log, the data and runtime directories, the command line and the operational endpoints'
 * bodies. Mutual TLS for peer hubs (issue 18): the listener asks for client certificates
 * ({@code HUB_TLS_TRUSTSTORE} holds two peers' certificates) and a forward from a socket presenting the
 * certificate its grant pins is accepted; without it (none, trusted but unpinned, a grant pinning none)
 * the refusal is the same plain error, and an untrusted certificate fails the handshake. The one other
 * hub of this class is a packaged origin (hub-a) configured as the operator guide's mutual-TLS steps
 * say, keys made with the guide's keytool commands ({@link PeerCertificates}): its agent's chat reaches
 * this hub (hub-b) over {@code wss://} with both receipts' facts, and once the grant pins another
 * certificate the forward settles {@code refused} ({@code peer_rejected}, §4.6). The secrets grep covers
 * the origin's log, directories and command line too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TlsIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String TOKEN = "tls-it-connect-token-3c1f";
    private static final String TLS_PASSWORD = "tls-it-keystore-pass-8e2d";
    private static final String HMAC_ALICE = "tls-it-hmac-alice-5a7b";
    private static final String HMAC_BOB = "tls-it-hmac-bob-90c4";
    private static final String ADMIN_TOKEN = "tls-it-redsyn-admin-6f0e";
    private static final String OPERATOR_TOKEN = "tls-it-operator-token-d41a";
    private static final String METRICS_TOKEN = "tls-it-metrics-token-b7e3";
    private static final String DB_PASSWORD = "tls-it-db-password-2a9c";
    private static final String JMX_PASSWORD = "tls-it-jmx-password-71fd";
    private static final String ALICE = "TLS/alice";
    private static final String BOB = "TLS/bob";
    /** The sender on the origin hub hub-a; hub-b shows it as {@code TLS/carol@hub-a}. */
    private static final String CAROL = "TLS/carol";
    /** Patience for a forward between the two hubs (an attempt waits up to 10 s for its answer, §4.3). */
    private static final Duration ORIGIN_WAIT = Duration.ofSeconds(40);
    private static final String POLICY = """
            {"rules":[
              {"permission":"message","target_kind":"agent","target_pattern":"TLS/*","namespace":"TLS"},
              {"permission":"claim","target_kind":"claim","target_pattern":"T-*","namespace":"TLS"},
              {"permission":"claim","target_kind":"path","target_pattern":"tls/*","namespace":"TLS"}
            ]}""";
    private static final Pattern SHORTCUT = Pattern.compile("^switchboard_container_shortcut_active\\{name=\"([a-z-]+)\"} ([01])$",
            Pattern.MULTILINE);

    private static final String TRUST_PASSWORD = "tls-it-truststore-pass-0b6d";
    private static final String PEER_PASSWORD = "tls-it-peer-keys-pass-c39a";
    /** What the hub answers a hub-to-hub frame from a socket that is not a proven peer (FederationService.NOT_A_PEER). */
    private static final String NOT_A_PEER = "Hub-to-hub frames are served only to a granted peer hub";

    private static HubServer hub;
    /** The packaged origin hub hub-a (plain, no token), forwarding to {@link #hub} (hub-b) over wss://. */
    private static HubServer origin;
    /** The receiving policy file, replaced by the case whose grant pins another certificate. */
    private static Path multihub;
    private static String peerAPin;
    private static String intruderPin;
    private static HttpClient https;
    private static int jmxPort;
    private static Path hubKeystore;
    /** Peer hub hub-a's client certificate (pinned by its grant), and another the hub trusts but no grant pins. */
    private static Path peerA;
    private static Path intruder;
    /** A certificate the hub does not trust at all. */
    private static Path stranger;

    @BeforeAll
    static void start() throws Exception {
        Path dir = SecuredHub.directory("tls-it");
        Path keystore = dir.resolve("hub.p12");
        Files.deleteIfExists(keystore);
        keytool(keystore);
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
        Path keys = ownerOnly(dir.resolve("keys.json"), "{\"keys\":["
                + "{\"kid\":\"k-alice\",\"secret\":\"" + HMAC_ALICE + "\",\"senders\":[\"" + ALICE + "\"]},"
                + "{\"kid\":\"k-bob\",\"secret\":\"" + HMAC_BOB + "\",\"senders\":[\"" + BOB + "\"]}]}");
        Path policy = ownerOnly(dir.resolve("policy.json"), POLICY);
        Path jmxPasswords = ownerOnly(dir.resolve("jmxremote.password"), "controlRole " + JMX_PASSWORD + "\n");
        hubKeystore = keystore;
        // mutual TLS (issue 18), keys and trust made as the operator guide's steps 2 and 3 make them: the
        // origin hub-a's client key, its certificate exported and imported into the trust store with
        // another one (intruder), the grant pinning hub-a's; a stranger the hub does not trust at all
        peerA = PeerCertificates.clientKey(dir.resolve("peer-client.p12"), "hub-a", PEER_PASSWORD);
        Path peerAPem = PeerCertificates.exportPem(peerA, "hub-a", PeerCertificates.CLIENT_PASSWORD_ENV, PEER_PASSWORD,
                dir.resolve("hub-a.pem"));
        intruder = keytool(dir.resolve("intruder.p12"), "intruder", "intruder", PEER_PASSWORD);
        Path intruderPem = PeerCertificates.exportPem(intruder, "intruder", PeerCertificates.CLIENT_PASSWORD_ENV, PEER_PASSWORD,
                dir.resolve("intruder.pem"));
        // the same subject as hub-a's, so a client offers it where hub-a's is asked for; its key differs
        stranger = keytool(dir.resolve("stranger.p12"), "stranger", "hub-a", PEER_PASSWORD);
        Path truststore = dir.resolve("peers.p12");
        Files.deleteIfExists(truststore);
        PeerCertificates.importCert(truststore, "hub-a", peerAPem, TRUST_PASSWORD);
        PeerCertificates.importCert(truststore, "intruder", intruderPem, TRUST_PASSWORD);
        peerAPin = PeerCertificates.pin(peerAPem);
        intruderPin = PeerCertificates.pin(intruderPem);
        multihub = ownerOnly(dir.resolve("multihub.json"), multihubPolicy(peerAPin)).toAbsolutePath();
        // step 6: the origin pins this hub's own certificate, exported from its keystore as in step 2
        String hubPin = PeerCertificates.pin(PeerCertificates.exportPem(keystore, "hub", "HUB_TLS_KEYSTORE_PASSWORD",
                TLS_PASSWORD, dir.resolve("hub-b.pem")));
        jmxPort = HubServer.freePort();
        Map<String, String> env = HubServer.env("HUB_ID", "hub-b",
                "HUB_TLS_KEYSTORE", keystore.toAbsolutePath().toString(), "HUB_TLS_KEYSTORE_PASSWORD", TLS_PASSWORD,
                "HUB_POSTURE", "paranoid", "HUB_TOKEN", TOKEN,
                "HUB_MESSAGE_AUTH_KEY_FILE", keys.toAbsolutePath().toString(),
                "HUB_ACL_POLICY", policy.toAbsolutePath().toString(),
                "HUB_METRICS_TOKEN", METRICS_TOKEN, "REDSYN_ADMIN_TOKEN", ADMIN_TOKEN,
                "SWITCHBOARD_OPERATOR_TOKEN", OPERATOR_TOKEN,
                "HUB_JMX_PORT", Integer.toString(jmxPort), "HUB_JMX_PASSWORD_FILE", jmxPasswords.toAbsolutePath().toString(),
                "HUB_TLS_TRUSTSTORE", truststore.toAbsolutePath().toString(), "HUB_TLS_TRUSTSTORE_PASSWORD", TRUST_PASSWORD,
                "HUB_MULTIHUB_POLICY", multihub.toAbsolutePath().toString());
        if (HubServer.database().equals("h2")) {
            env.put("HUB_DB_PASSWORD", DB_PASSWORD); // a fresh H2 file takes it as its password
        }
        hub = HubServer.prepare(env);
        // the one other hub of this class: a packaged origin started as the guide's step 6 says, forwarding
        // to this hub over wss:// with its server pin, presenting its client keystore; its password comes from
        // the guide's file form (HUB_MESSAGE_PEER_KEYSTORE_PASSWORD_FILE), whose read no unit test covers
        Path peerPasswordFile = ownerOnly(dir.resolve("peer-client.pass"), PEER_PASSWORD + "\n");
        origin = HubServer.prepare(HubServer.env("HUB_ID", "hub-a",
                "HUB_MESSAGE_PEERS", "hub-b=wss://127.0.0.1:" + hub.port() + "/",
                "HUB_MESSAGE_PEER_PINS", "hub-b=" + hubPin,
                "HUB_MESSAGE_PEER_KEYSTORE", peerA.toAbsolutePath().toString(),
                "HUB_MESSAGE_PEER_KEYSTORE_PASSWORD_FILE", peerPasswordFile.toAbsolutePath().toString(),
                "HUB_MESSAGE_PEER_TOKEN", TOKEN));
        // both boot side by side (two cores); the origin needs nothing from this hub until it forwards
        CompletableFuture<Void> originBoot = CompletableFuture.runAsync(origin::restart);
        hub.restart();
        originBoot.join();
        https = hub.httpClient();
    }

    @AfterAll
    static void stop() {
        // side by side, as they booted
        CompletableFuture<Void> originStop = CompletableFuture.runAsync(() -> {
            if (origin != null) {
                origin.stop();
            }
        });
        if (hub != null) {
            hub.stop();
        }
        originStop.join();
    }

    /** The receiving policy: hub-a granted TLS with {@code hubAPin} as its cert_pin, hub-n granted TLS pinning nothing. */
    private static String multihubPolicy(String hubAPin) {
        return "{\"version\":1,\"grants\":["
                + "{\"sender\":\"hub-a\",\"namespace\":\"TLS\",\"verbs\":[\"message\"],\"cert_pin\":\"" + hubAPin + "\"},"
                + "{\"sender\":\"hub-n\",\"namespace\":\"TLS\",\"verbs\":[\"message\"]}]}";
    }

    /** Replaces the policy file the way an operator should: an owner-only temporary file renamed over it. */
    private static void replaceMultihubPolicy(String content) throws IOException {
        Path next = ownerOnly(multihub.resolveSibling("multihub.json.next"), content);
        Files.move(next, multihub, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A self-signed EC key for 127.0.0.1 in a PKCS12 keystore; the password reaches keytool through its environment. */
    private static void keytool(Path keystore) throws IOException, InterruptedException {
        keytool(keystore, "hub", "127.0.0.1", TLS_PASSWORD);
    }

    /** A self-signed EC key entry {@code alias} for CN={@code cn} in a new PKCS12 keystore protected by {@code password}. */
    private static Path keytool(Path keystore, String alias, String cn, String password) throws IOException, InterruptedException {
        Files.deleteIfExists(keystore);
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        ProcessBuilder builder = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + cn, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass:env", "TLS_IT_PASS", "-keypass:env", "TLS_IT_PASS");
        builder.environment().put("TLS_IT_PASS", password);
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, "keytool: " + output);
        return keystore;
    }

    private static X509Certificate certificate(Path keystore, String alias) throws Exception {
        return (X509Certificate) KeyStore.getInstance(keystore.toFile(), PEER_PASSWORD.toCharArray()).getCertificate(alias);
    }

    /** A PKCS12 trust store of the certificates of {@code entries} (alias to keystore), as keytool -importcert makes it. */
    private static Path trustStore(Path file, Map<String, Path> entries) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (Map.Entry<String, Path> e : entries.entrySet()) {
            store.setCertificateEntry(e.getKey(), certificate(e.getValue(), e.getKey()));
        }
        Files.deleteIfExists(file);
        try (var out = Files.newOutputStream(file)) {
            store.store(out, TRUST_PASSWORD.toCharArray());
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /** A client trusting the hub's certificate and presenting the key entry {@code alias} of {@code keystore} (null: none). */
    private static HttpClient presenting(Path keystore, String alias) throws Exception {
        KeyManager[] keys = null;
        if (keystore != null) {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(KeyStore.getInstance(keystore.toFile(), PEER_PASSWORD.toCharArray()), PEER_PASSWORD.toCharArray());
            keys = factory.getKeyManagers();
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(KeyStore.getInstance(hubKeystore.toFile(), TLS_PASSWORD.toCharArray()));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trust.getTrustManagers(), null);
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1)
                .sslContext(context).build();
    }

    /**
     * A socket registered as peer hub {@code hubId} at protocol_version 5 with the connect token (§4.3),
     * over {@code http}; waits for the welcome.
     */
    private static SynapseClient peer(HttpClient http, String hubId) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            SynapseClient client = SynapseClient.connect(http, hub.webSocketUri(), hubId);
            client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN).add("protocol_version", 5));
            JsonObject answer = client.expect(f -> type("welcome").test(f) || type("name_conflict").test(f), WAIT);
            if (type("welcome").test(answer)) {
                return client;
            }
            // a socket that is not a proven peer binds its name like an agent: the previous case's socket
            // may still hold it for a moment after its close
            client.close();
            assertTrue(attempt < 40, "the name stays taken: " + answer);
            Thread.sleep(250);
        }
    }

    private static JsonObjectBuilder chatForward(String forwardId, String payload) {
        return Json.createObjectBuilder().add("type", "multihub_message_forward").add("target", "System").add("payload", "")
                .add("forward_id", forwardId).add("kind", "chat").add("sender_seat", "TLS/carol").add("target_seat", BOB)
                .add("body", Json.createObjectBuilder().add("payload", payload).add("origin_msg_id", 7)
                        .add("origin_timestamp", 1790000001.5));
    }

    /** The first result or error answering one forward on {@code peer}. */
    private static JsonObject answer(SynapseClient peer) {
        return peer.expect(f -> type("multihub_message_result").test(f) || type("error").test(f), WAIT);
    }

    private static SynapseClient login(String name) {
        SynapseClient client = SynapseClient.connect(https, hub.webSocketUri(), name);
        // a token-secured hub says welcome only after the token: the heartbeat goes first
        client.send(SynapseClient.frame("heartbeat", "System", "online").add("token", TOKEN));
        client.expect(f -> "presence_update".equals(f.getString("type", "")) && name.equals(f.getString("agent", "")), WAIT);
        return client;
    }

    private static Predicate<JsonObject> type(String type) {
        return f -> type.equals(f.getString("type", ""));
    }

    private static HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        return get(path, bearer, WAIT);
    }

    private static HttpResponse<String> get(String path, String bearer, Duration timeout) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(hub.http(path)).timeout(timeout);
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String bearer, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(hub.http(path)).timeout(WAIT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(1)
    void aParanoidHubWithAKeystoreServesWithoutAProxyDeclaration() throws Exception {
        assertTrue(hub.webSocketUri().toString().startsWith("wss://"), hub.webSocketUri().toString());
        HttpResponse<String> ready = get("/mphealth/ready", null);
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().replace(" ", "").contains("\"synapse-posture\":\"true\""), ready.body());
        String log = Files.readString(hub.logFile());
        assertFalse(log.contains("refuses to serve"), "no refusal: "
                + log.lines().filter(l -> l.contains("refuses to serve")).toList());
        assertTrue(log.contains("run-hub: Switchboard on https://127.0.0.1:" + hub.port() + "/"), "run-hub announces https");
    }

    @Test
    @Order(2)
    void overWssTwoClientsRegisterChatAndASignedClaimIsGranted() {
        try (SynapseClient alice = login(ALICE); SynapseClient bob = login(BOB)) {
            alice.send(SynapseClient.frame("chat", BOB, "hello over tls"));
            assertEquals("hello over tls", bob.expect(f -> "chat".equals(f.getString("type", ""))
                    && "hello over tls".equals(f.getString("payload", "")), WAIT).getString("payload"));
            bob.send(SynapseClient.frame("chat", ALICE, "and back"));
            alice.expect(f -> "chat".equals(f.getString("type", "")) && "and back".equals(f.getString("payload", "")), WAIT);

            JsonObjectBuilder claim = Json.createObjectBuilder().add("type", "claim").add("target", "System")
                    .add("task_id", "T-tls-1").add("paths", Json.createArrayBuilder().add("tls/one"));
            alice.sendRaw(MessageAuthIT.signed(claim, ALICE, "k-alice", HMAC_ALICE, MessageAuthIT.now()));
            assertEquals(ALICE, alice.expect(f -> "claim_granted".equals(f.getString("type", ""))
                    && "T-tls-1".equals(f.getString("task_id", "")), WAIT).getString("owner"));
            // paranoid forces message auth: the same verb unsigned is refused
            bob.send(SynapseClient.frame("claim", "System", "").add("task_id", "T-tls-2")
                    .add("paths", Json.createArrayBuilder().add("tls/two")).add("sender", BOB));
            assertEquals("missing", bob.expect(f -> type("error").test(f) && f.containsKey("verification_result"), WAIT)
                    .getString("verification_result"));
        }
    }

    @Test
    @Order(3)
    void redsynAdminAndHealthAnswerOverHttps() throws Exception {
        HttpResponse<String> me = get("/redsyn/v1/me", null);
        assertEquals(401, me.statusCode(), me.body());
        assertTrue(me.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), me.headers().toString());
        HttpResponse<String> person = post("/redsyn/admin/persons", ADMIN_TOKEN,
                "{\"email\":\"tls@acme.test\",\"plan\":\"enterprise\"}");
        assertEquals(201, person.statusCode(), person.body());
        HttpResponse<String> health = get("/health", METRICS_TOKEN);
        assertEquals(200, health.statusCode(), health.body());
    }

    @Test
    @Order(4)
    void plainWebSocketAndHttpToTheTlsPortFail() {
        URI plain = URI.create("ws://127.0.0.1:" + hub.port() + "/");
        assertThrows(RuntimeException.class, () -> SynapseClient.connect(plain, "TLS/plain").close());
        HttpClient clear = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + hub.port() + "/health"))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> answer = clear.send(health, HttpResponse.BodyHandlers.ofString());
            assertTrue(answer.statusCode() >= 400, "plain HTTP must not be served: " + answer.statusCode() + " " + answer.body());
        } catch (IOException e) {
            // refused at the TLS layer: expected
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    @Order(5)
    void aPeerHubPresentingItsPinnedClientCertificateForwardsOverWss() throws Exception {
        try (SynapseClient bob = login(BOB); SynapseClient peer = peer(presenting(peerA, "hub-a"), "hub-a")) {
            peer.send(chatForward("tls-mtls-1", "over mutual tls"));
            JsonObject result = answer(peer);
            assertEquals("multihub_message_result", result.getString("type"), result.toString());
            assertEquals("accepted", result.getString("disposition"), result.toString());
            JsonObject seen = bob.expect(f -> type("chat").test(f) && "over mutual tls".equals(f.getString("payload", "")), WAIT);
            assertEquals("TLS/carol@hub-a", seen.getString("sender"));
            assertEquals("hub-a", seen.getString("forwarded_from"));
        }
    }

    @Test
    @Order(5)
    void withoutItsPinnedCertificateAPeerIsRefusedUniformly() throws Exception {
        // no certificate, a certificate the hub trusts but the grant does not pin, and a grant that pins
        // none (wss:// needs one): each socket registers and is answered the same plain error, no result
        Map<String, HttpClient> cases = new LinkedHashMap<>();
        cases.put("hub-a: no certificate", https);
        cases.put("hub-a: unpinned certificate", presenting(intruder, "intruder"));
        cases.put("hub-n: grant without cert_pin", https);
        int n = 0;
        for (Map.Entry<String, HttpClient> c : cases.entrySet()) {
            try (SynapseClient socket = peer(c.getValue(), c.getKey().substring(0, 5))) {
                socket.send(chatForward("tls-mtls-refused-" + n++, "must not arrive"));
                JsonObject answer = answer(socket);
                assertEquals("error", answer.getString("type"), c.getKey() + ": " + answer);
                assertEquals(NOT_A_PEER, answer.getString("payload"), c.getKey());
            }
        }
        // a certificate the hub does not trust fails the TLS handshake itself
        HttpClient untrusted = presenting(stranger, "stranger");
        assertThrows(RuntimeException.class, () -> SynapseClient.connect(untrusted, hub.webSocketUri(), "hub-a").close());
    }

    /** The first settled (not pending) delivery receipt for the chat {@code clientMsgId}; pending ones are skipped. */
    private static JsonObject settledReceipt(SynapseClient sender, String clientMsgId) {
        return sender.expect(f -> type("delivery_receipt").test(f) && clientMsgId.equals(f.getString("client_msg_id", ""))
                && !"pending".equals(f.getString("forward_state", "")), ORIGIN_WAIT);
    }

    @Test
    @Order(6)
    void aPackagedOriginHubForwardsAChatOverWssPresentingItsPinnedCertificate() throws Exception {
        // the guide's step 2 says the origin logs the pin it presents: the same as the exported certificate's
        assertTrue(Files.readString(origin.logFile()).contains("wss:// peers are shown the client certificate 'hub-a' (cert_pin "
                + peerAPin + ")"), "the origin logs its client certificate's pin");
        try (SynapseClient bob = login(BOB); SynapseClient carol = SynapseClient.register(origin.webSocketUri(), CAROL)) {
            carol.send(SynapseClient.frame("chat", BOB + "@hub-b", "from a packaged origin over wss")
                    .add("receipt_requested", true).add("client_msg_id", "tls-origin-1"));
            JsonObject seen = bob.expect(f -> type("chat").test(f)
                    && "from a packaged origin over wss".equals(f.getString("payload", "")), ORIGIN_WAIT);
            assertEquals(CAROL + "@hub-a", seen.getString("sender"), seen.toString());
            assertEquals("hub-a", seen.getString("forwarded_from"), seen.toString());
            JsonObject receipt = settledReceipt(carol, "tls-origin-1");
            assertEquals("accepted", receipt.getString("forward_state"), receipt.toString());
            assertEquals(seen.getString("forward_id"), receipt.getString("forward_id"));
            assertEquals("hub-b", receipt.getString("forwarded_to"));
            assertEquals(BOB + "@hub-b", receipt.getString("message_target"));
            assertTrue(receipt.getJsonArray("matched_recipients").toString().contains(BOB + "@hub-b"), receipt.toString());
            bob.expectNone(f -> type("chat").test(f) && "from a packaged origin over wss".equals(f.getString("payload", "")),
                    Duration.ofSeconds(2));
        }
    }

    @Test
    @Order(7)
    void aGrantPinningAnotherCertificateRefusesThePackagedOriginsForwardUntilItIsFixed() throws Exception {
        // the operator pins another certificate (still trusted, so the handshake passes): the receiver answers the
        // origin's forward with its plain error, which §4.6 settles refused (peer_rejected) with no retry
        replaceMultihubPolicy(multihubPolicy(intruderPin));
        try (SynapseClient bob = login(BOB); SynapseClient carol = SynapseClient.register(origin.webSocketUri(), CAROL + "2")) {
            carol.send(SynapseClient.frame("chat", BOB + "@hub-b", "pinned elsewhere: must not arrive")
                    .add("receipt_requested", true).add("client_msg_id", "tls-origin-2"));
            JsonObject receipt = settledReceipt(carol, "tls-origin-2");
            assertEquals("refused", receipt.getString("forward_state"), receipt.toString());
            assertEquals("forward_refused", receipt.getString("reason"), receipt.toString());
            assertEquals("Forward to hub 'hub-b' refused (peer_rejected)", receipt.getString("payload"), receipt.toString());
            assertEquals("hub-b", receipt.getString("forwarded_to"));
            assertFalse(receipt.getBoolean("delivered"), receipt.toString());
            assertEquals("[]", receipt.getJsonArray("recipients").toString(), receipt.toString());
            bob.expectNone(f -> type("chat").test(f) && f.getString("payload", "").startsWith("pinned elsewhere"),
                    Duration.ofSeconds(3));
            // settled for good: no retry brings a second receipt (frames of bob's 3 s wait are already queued)
            carol.expectNone(type("delivery_receipt"), Duration.ofSeconds(1));

            // the grant fixed, the agent sends again (as the guide says): accepted; the refused one stays refused
            replaceMultihubPolicy(multihubPolicy(peerAPin));
            carol.send(SynapseClient.frame("chat", BOB + "@hub-b", "pinned again: arrives")
                    .add("receipt_requested", true).add("client_msg_id", "tls-origin-3"));
            JsonObject again = settledReceipt(carol, "tls-origin-3");
            assertEquals("accepted", again.getString("forward_state"), again.toString());
            bob.expect(f -> type("chat").test(f) && "pinned again: arrives".equals(f.getString("payload", "")), ORIGIN_WAIT);
            bob.expectNone(f -> type("chat").test(f) && f.getString("payload", "").startsWith("pinned elsewhere"),
                    Duration.ofSeconds(1));
        } finally {
            replaceMultihubPolicy(multihubPolicy(peerAPin));
        }
    }

    @Test
    @Order(8)
    void aRedsynLongPollOverHttpsWaitsForItsMessage() throws Exception {
        String joel = node("joel@tls.test");
        String ana = node("ana@tls.test");
        assertEquals(201, send("POST", "/redsyn/v1/orgs", joel, Relay.obj("handle", "tlsorg", "me", "joel")).statusCode());
        assertTrue(send("POST", "/redsyn/v1/orgs/tlsorg/invites", joel, Relay.obj("email", "ana@tls.test", "team", "general"))
                .statusCode() < 300);
        assertEquals(201, send("POST", "/redsyn/v1/orgs/tlsorg/join", ana, Relay.obj("me", "ana")).statusCode());
        String agent = "tlsorg/general/joel/poller";
        int announced = send("PUT", "/redsyn/v1/agents/" + agent, joel, Relay.obj("listening", true)).statusCode();
        assertTrue(announced == 200 || announced == 201, "announce: " + announced);
        long started = System.nanoTime();
        java.util.concurrent.CompletableFuture<HttpResponse<String>> poll = https.sendAsync(HttpRequest.newBuilder(
                        hub.http("/redsyn/v1/inbox/" + agent + "?wait=20")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + joel).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(2_000); // parked, its TLS connection watched by the long-poll-channel shortcut
        assertFalse(poll.isDone(), "a live TLS client's poll is not released early: " + (poll.isDone() ? poll.get().body() : ""));
        HttpResponse<String> sent = send("POST", "/redsyn/v1/messages", ana,
                Relay.request("tlsorg/general/ana/cli", agent, "over tls"));
        assertEquals(201, sent.statusCode(), sent.body());
        HttpResponse<String> taken = poll.get(60, TimeUnit.SECONDS);
        assertEquals(200, taken.statusCode(), taken.body());
        assertTrue(taken.body().contains("over tls"), taken.body());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 20, "answered by the message, not the wait");
    }

    private static String node(String email) throws Exception {
        HttpResponse<String> person = post("/redsyn/admin/persons", ADMIN_TOKEN, "{\"email\":\"" + email + "\"}");
        assertEquals(201, person.statusCode(), person.body());
        long id = Json.createReader(new java.io.StringReader(person.body())).readObject().getJsonNumber("id").longValue();
        HttpResponse<String> node = post("/redsyn/admin/persons/" + id + "/nodes", ADMIN_TOKEN, "{\"name\":\"laptop\"}");
        assertEquals(201, node.statusCode(), node.body());
        return Json.createReader(new java.io.StringReader(node.body())).readObject().getString("token");
    }

    private static HttpResponse<String> send(String method, String path, String bearer, JsonObject body) throws Exception {
        return https.send(HttpRequest.newBuilder(hub.http(path)).timeout(WAIT).header("Authorization", "Bearer " + bearer)
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(9)
    void theContainerShortcutsStayEngagedUnderTls() throws Exception {
        HttpResponse<String> metrics = get("/metrics", METRICS_TOKEN);
        assertEquals(200, metrics.statusCode(), metrics.body());
        Map<String, String> active = new LinkedHashMap<>();
        Matcher m = SHORTCUT.matcher(metrics.body());
        while (m.find()) {
            active.put(m.group(1), m.group(2));
        }
        // the raw writes hand framed bytes to Tyrus's writer, which writes through Grizzly's SSL filter:
        // engaged, and the wss chat of case 2 arrived through them
        for (String name : List.of("raw-frame-writes", "upgrade-frame-gate", "upgrade-handler-direct", "idle-timer-bypass", "write-buffer-size",
                "long-poll-channel")) {
            assertEquals("1", active.get(name), name + " under TLS: " + active);
        }
        String log = Files.readString(hub.logFile());
        assertTrue(log.contains("raw-frame-writes=on"), "the start-up line says so");
        assertFalse(log.contains("did not engage"), "no shortcut failed on a TLS connection: "
                + log.lines().filter(l -> l.contains("did not engage")).toList());
    }

    @Test
    @Order(10)
    void noSecretAppearsInTheLogTheDirectoriesTheCommandLineOrTheEndpoints() throws Exception {
        // exercise what reads each remaining secret once: a console login, a JMX login
        HttpResponse<String> console = post("/console/api/login", null, "{\"token\":\"" + OPERATOR_TOKEN + "\"}");
        assertEquals(200, console.statusCode(), console.body());
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
        try (JMXConnector jmx = JMXConnectorFactory.connect(url, Map.of(JMXConnector.CREDENTIALS,
                new String[] {"controlRole", JMX_PASSWORD}))) {
            assertTrue(jmx.getMBeanServerConnection().getMBeanCount() > 0);
        }

        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("connect token", TOKEN);
        secrets.put("TLS keystore password", TLS_PASSWORD);
        secrets.put("HMAC secret k-alice", HMAC_ALICE);
        secrets.put("HMAC secret k-bob", HMAC_BOB);
        secrets.put("REDSYN admin token", ADMIN_TOKEN);
        secrets.put("operator token", OPERATOR_TOKEN);
        secrets.put("metrics token", METRICS_TOKEN);
        secrets.put("JMX password", JMX_PASSWORD);
        secrets.put("TLS trust store password", TRUST_PASSWORD);
        secrets.put("origin's client keystore password", PEER_PASSWORD);
        if (HubServer.database().equals("h2")) {
            secrets.put("database password", DB_PASSWORD);
        }

        Map<String, byte[]> places = new LinkedHashMap<>();
        places.put("hub log", Files.readAllBytes(hub.logFile()));
        addFiles(places, hub.dataDir());
        payaraRuntimeDir(hub.pid()).ifPresent(dir -> addFiles(places, dir));
        // the origin hub holds the connect token (as its peer token) and its client keystore's password
        places.put("origin log", Files.readAllBytes(origin.logFile()));
        addFiles(places, origin.dataDir());
        payaraRuntimeDir(origin.pid()).ifPresent(dir -> addFiles(places, dir));
        places.put("origin command line", ProcessHandle.of(origin.pid()).flatMap(p -> p.info().commandLine()).orElse("")
                .getBytes(StandardCharsets.UTF_8));
        String runtimeDir = System.getProperty("hub.runtimeDir");
        if (runtimeDir != null) {
            addFiles(places, Path.of(runtimeDir));
        }
        places.put("command line", ProcessHandle.of(hub.pid()).flatMap(p -> p.info().commandLine()).orElse("")
                .getBytes(StandardCharsets.UTF_8));
        for (String path : List.of("/metrics", "/health", "/openapi", "/mphealth/ready")) {
            // generous: Payara builds the OpenAPI document on its first request, slowly on a loaded machine
            places.put(path, get(path, METRICS_TOKEN, Duration.ofSeconds(120)).body().getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(places.keySet().stream().anyMatch(p -> p.contains("pre-boot.asadmin")), "the command files were searched: "
                + places.keySet());
        assertTrue(places.keySet().stream().anyMatch(p -> p.endsWith("domain.xml")), "Payara's runtime directory was searched: "
                + places.keySet());

        List<String> found = new ArrayList<>();
        secrets.forEach((what, value) -> places.forEach((where, bytes) -> {
            if (contains(bytes, value.getBytes(StandardCharsets.UTF_8))) {
                found.add(what + " in " + where);
            }
        }));
        assertEquals(List.of(), found, "secrets found (searched " + places.size() + " places)");
    }

    @Test
    @Order(11)
    void runHubRefusesAKeystoreItCannotUseWithoutEchoingThePassword() throws Exception {
        Path dir = Files.createDirectories(hub.dataDir().resolveSibling("tls-it-refusals-" + ProcessHandle.current().pid()));
        Path keystore = dir.resolve("hub.p12");
        Files.deleteIfExists(keystore);
        keytool(keystore);
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-r-----"));
        assertRefused(keystore, TLS_PASSWORD, "must be readable by its owner only");
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
        assertRefused(keystore, "not-" + TLS_PASSWORD, "cannot be opened with HUB_TLS_KEYSTORE_PASSWORD");
        assertRefused(keystore, "", "HUB_TLS_KEYSTORE_PASSWORD is not");
        assertRefused(dir.resolve("absent.p12"), TLS_PASSWORD, "is not a readable file");
        // the peers' trust store (mutual TLS) is checked the same way, its password never echoed either
        Path peers = trustStore(dir.resolve("peers.p12"), Map.of("hub-a", peerA));
        assertRefused(keystore, TLS_PASSWORD, "cannot be opened with HUB_TLS_TRUSTSTORE_PASSWORD",
                Map.of("HUB_TLS_TRUSTSTORE", peers.toString(), "HUB_TLS_TRUSTSTORE_PASSWORD", "not-" + TRUST_PASSWORD));
        assertRefused(keystore, TLS_PASSWORD, "HUB_TLS_TRUSTSTORE_PASSWORD is not", Map.of("HUB_TLS_TRUSTSTORE", peers.toString()));
    }

    /** run-hub with {@code keystore} exits 2 before starting Java, saying {@code why} and never the password. */
    private static void assertRefused(Path keystore, String password, String why) throws Exception {
        assertRefused(keystore, password, why, Map.of());
    }

    /** As above, with {@code extra} in run-hub's environment (whose values are not echoed either). */
    private static void assertRefused(Path keystore, String password, String why, Map<String, String> extra) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", System.getProperty("hub.runScript"));
        Map<String, String> env = builder.environment();
        env.put("HUB_DATA_DIR", keystore.resolveSibling("data").toString());
        env.put("HUB_WAR", System.getProperty("hub.war"));
        env.put("HUB_PAYARA_JAR", System.getProperty("payara.microJar"));
        env.put("HUB_RAR", System.getProperty("hub.rar"));
        env.put("HUB_TLS_KEYSTORE", keystore.toString());
        env.put("HUB_TLS_KEYSTORE_PASSWORD", password);
        env.remove("HUB_TLS_TRUSTSTORE");
        env.remove("HUB_TLS_TRUSTSTORE_PASSWORD");
        env.putAll(extra);
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "run-hub did not stop: " + output);
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains(why), output);
        if (!password.isEmpty()) {
            assertFalse(output.contains(password), "the password is not echoed: " + output);
        }
        String trustPassword = extra.getOrDefault("HUB_TLS_TRUSTSTORE_PASSWORD", "");
        if (!trustPassword.isEmpty()) {
            assertFalse(output.contains(trustPassword), "the trust store password is not echoed: " + output);
        }
    }

    /** Every regular file under {@code dir} up to 8 MB (the big ones are Payara's and ActiveMQ's own jars). */
    private static void addFiles(Map<String, byte[]> places, Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                try {
                    if (Files.size(file) <= 8 << 20) {
                        places.put(file.toString(), Files.readAllBytes(file));
                    }
                } catch (IOException e) {
                    // gone meanwhile (a rotated or temporary file)
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The temporary directory Payara Micro unpacked itself into (domain.xml lives there), found through the hub's open files. */
    private static Optional<Path> payaraRuntimeDir(long pid) {
        Pattern runtime = Pattern.compile("^(.*/payaramicro-rt[^/]*)/");
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    return "";
                }
            }).map(runtime::matcher).filter(Matcher::find).map(found -> Path.of(found.group(1))).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
