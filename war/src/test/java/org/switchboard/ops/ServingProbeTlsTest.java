package org.switchboard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readiness probe against an {@code https} base served with a self-signed certificate (run-hub with a keystore). */
class ServingProbeTlsTest {

    private static final char[] PASSWORD = "probe-test-pass".toCharArray();

    @TempDir
    Path dir;
    private HttpsServer server;

    @BeforeEach
    void start() throws Exception {
        Path keystore = dir.resolve("self-signed.p12");
        ProcessBuilder keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "hub", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=not-this-host",
                "-validity", "1", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass:env", "P", "-keypass:env", "P");
        keytool.environment().put("P", new String(PASSWORD));
        keytool.redirectErrorStream(true);
        Process process = keytool.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);

        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, PASSWORD);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(factory.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/redsyn/v1/me", exchange -> {
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void anHttpsBaseWithTheHubsOwnSelfSignedCertificateCountsAsServed() throws Exception {
        URI base = URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/");
        ServingProbe probe = new ServingProbe(base, List.of("redsyn/v1/me"));
        assertEquals(true, probe.probe().get(30, TimeUnit.SECONDS), "a self-signed, other-named certificate is accepted");
        assertTrue(probe.served());
    }
}
