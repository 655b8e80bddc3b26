package org.switchboard.synapse.federation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.switchboard.synapse.federation.TestKeystores;
import org.switchboard.synapse.federation.policy.CertificatePins;

/** The origin's client certificate for mutual TLS: loading it, its faults, and the TLS context presenting it. */
class PeerClientIdentityTest {

    private static final String PASSWORD = "peer-ks-pass-4a1c";

    @TempDir
    static Path dir;
    static Path clientStore;
    static Path serverStore;

    @BeforeAll
    static void keystores() throws Exception {
        clientStore = TestKeystores.create(dir.resolve("client.p12"), "hub-a", "hub-a", PASSWORD);
        // the server's certificate: any other one
        serverStore = TestKeystores.create(dir.resolve("server.p12"), "hub-b", "127.0.0.1", PASSWORD);
    }

    @Test
    void theOnlyKeyEntryIsPresentedAndItsPinIsTheCertificates() throws Exception {
        PeerClientIdentity identity = PeerClientIdentity.load(clientStore, PASSWORD.toCharArray(), null);
        assertEquals("hub-a", identity.alias());
        assertEquals(CertificatePins.of(TestKeystores.certificate(clientStore, "hub-a", PASSWORD)), identity.pin());
        assertNotNull(identity.keyManager().getPrivateKey("hub-a"));
        assertNull(identity.keyManager().getPrivateKey("other"));
    }

    @Test
    void aKeystoreThatCannotBeUsedIsRefusedNamingTheKeyNeverThePassword() throws Exception {
        for (String[] bad : new String[][] {
                {dir.resolve("absent.p12").toString(), PASSWORD, "", "not a readable file"},
                {clientStore.toString(), "wrong-" + PASSWORD, "", "cannot be opened"},
                {clientStore.toString(), "", "", "no password"},
                {clientStore.toString(), PASSWORD, "nope", "no private key entry 'nope'"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PeerClientIdentity.load(Path.of(bad[0]), bad[1].toCharArray(), bad[2]));
            assertTrue(e.getMessage().startsWith("SYNAPSE refuses to serve: hub.message-peer-keystore: "), e.getMessage());
            assertTrue(e.getMessage().contains(bad[3]), e.getMessage());
            assertFalse(e.getMessage().contains(PASSWORD), "the password is never in the line");
        }
        MessagePeers peers = MessagePeers.parse("hub-b=wss://127.0.0.1:9/", "hub-b=sha256:" + "ab".repeat(32), 60)
                .withClientKeystore(dir.resolve("absent.p12").toString(), PASSWORD.toCharArray(), "");
        assertTrue(peers.fault().contains("hub.message-peer-keystore"), peers.fault());
        assertTrue(peers.peers().isEmpty());
        MessagePeers good = MessagePeers.parse("hub-b=wss://127.0.0.1:9/", "hub-b=sha256:" + "ab".repeat(32), 60)
                .withMaxBackoff(5).withClientKeystore(clientStore.toString(), PASSWORD.toCharArray(), "");
        assertNull(good.fault());
        assertEquals("hub-a", good.clientIdentity().alias());
        assertEquals(5, good.maxBackoffSeconds(), "the other settings are kept");
        assertNull(MessagePeers.none().withClientKeystore("", null, "").clientIdentity(), "unset: no certificate");
    }

    /**
     * A TLS server that requires a client certificate and trusts any: the pinned context presents the
     * identity's certificate, and still refuses a server whose certificate is not the pinned one.
     */
    @Test
    void thePinnedContextPresentsTheClientCertificateAndKeepsTheServerPin() throws Exception {
        PeerClientIdentity identity = PeerClientIdentity.load(clientStore, PASSWORD.toCharArray(), "hub-a");
        String serverPin = CertificatePins.of(TestKeystores.certificate(serverStore, "hub-b", PASSWORD));
        String serverPinHex = serverPin.substring("sha256:".length());
        try (SSLServerSocket server = server()) {
            CompletableFuture<String> seen = accept(server);
            SSLContext pinned = WebSocketPeerClient.pinnedContext(serverPinHex, identity);
            try (SSLSocket socket = (SSLSocket) pinned.getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                socket.startHandshake();
                socket.getOutputStream().write(1);
                socket.getOutputStream().flush();
            }
            assertEquals(identity.pin(), seen.get(20, TimeUnit.SECONDS), "the server saw the hub's client certificate");

            CompletableFuture<String> refused = accept(server);
            SSLContext wrongPin = WebSocketPeerClient.pinnedContext("00".repeat(32), identity);
            try (SSLSocket socket = (SSLSocket) wrongPin.getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                assertThrows(SSLHandshakeException.class, socket::startHandshake, "a server off its pin is refused");
            }
            refused.handle((v, e) -> null).get(20, TimeUnit.SECONDS);
        }
    }

    private static SSLServerSocket server() throws Exception {
        KeyStore store = TestKeystores.load(serverStore, PASSWORD);
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 5,
                java.net.InetAddress.getLoopbackAddress());
        server.setNeedClientAuth(true);
        return server;
    }

    /** The pin of the client certificate of the next connection (its handshake completed by a read). */
    private static CompletableFuture<String> accept(SSLServerSocket server) {
        return CompletableFuture.supplyAsync(() -> {
            try (SSLSocket socket = (SSLSocket) server.accept()) {
                socket.setSoTimeout(20_000);
                InputStream in = socket.getInputStream();
                in.read();
                OutputStream ignored = socket.getOutputStream();
                return CertificatePins.of((X509Certificate) socket.getSession().getPeerCertificates()[0]);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
