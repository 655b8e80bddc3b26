package org.switchboard.synapse.federation.outbound;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.switchboard.synapse.federation.policy.CertificatePins;

/**
 * The client certificate this hub presents to {@code wss://} peers for mutual TLS (synapse-advanced
 * §4.2 "the multi-hub client certificate"): one private key entry of a PKCS12 or JKS keystore
 * ({@code hub.message-peer-keystore}), loaded once at start. Faults name the key, never the password.
 */
public final class PeerClientIdentity {

    /** The keystore setting. */
    public static final String KEYSTORE_KEY = "hub.message-peer-keystore";
    /** The file holding the keystore password (alternative to the environment variable). */
    public static final String PASSWORD_FILE_KEY = "hub.message-peer-keystore-password-file";
    /** The environment variable holding the keystore password; read from the environment only, never from system properties. */
    public static final String PASSWORD_ENV = "HUB_MESSAGE_PEER_KEYSTORE_PASSWORD";
    /** The key entry to present (default: the keystore's only private key entry). */
    public static final String ALIAS_KEY = "hub.message-peer-keystore-alias";

    private final String alias;
    private final PrivateKey key;
    private final X509Certificate[] chain;
    private final String pin;

    private PeerClientIdentity(String alias, PrivateKey key, X509Certificate[] chain) {
        this.alias = alias;
        this.key = key;
        this.chain = chain;
        this.pin = CertificatePins.ofDer(encoded(chain[0]));
    }

    /**
     * Loads the key entry {@code alias} (null or blank: the only private key entry) of {@code keystore}
     * with {@code password} (cleared afterwards); any fault is an {@link IllegalArgumentException}
     * whose message is the start-up refusal line, naming {@code hub.message-peer-keystore}.
     */
    public static PeerClientIdentity load(Path keystore, char[] password, String alias) {
        try {
            if (password == null || password.length == 0) {
                throw refusal("is set but no password is (" + PASSWORD_ENV + " or " + PASSWORD_FILE_KEY + ")");
            }
            if (!Files.isRegularFile(keystore) || !Files.isReadable(keystore)) {
                throw refusal("is not a readable file");
            }
            KeyStore store;
            try {
                // KeyStore.getInstance(File, …) tells PKCS12 from JKS by the content
                store = KeyStore.getInstance(keystore.toFile(), password);
            } catch (IOException | GeneralSecurityException e) {
                throw refusal("cannot be opened with its password (wrong password, or not a PKCS12 or JKS keystore)");
            }
            String chosen = alias == null || alias.isBlank() ? onlyKeyEntry(store) : alias.strip();
            if (!store.isKeyEntry(chosen) || !(store.getKey(chosen, password) instanceof PrivateKey key)) {
                throw refusal("has no private key entry '" + chosen + "' (" + ALIAS_KEY + ")");
            }
            Certificate[] certificates = store.getCertificateChain(chosen);
            if (certificates == null || certificates.length == 0 || !(certificates[0] instanceof X509Certificate)) {
                throw refusal("entry '" + chosen + "' has no X.509 certificate");
            }
            X509Certificate[] chain = Arrays.stream(certificates).map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
            return new PeerClientIdentity(chosen, key, chain);
        } catch (GeneralSecurityException e) {
            throw refusal("its key cannot be read with the password");
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
        }
    }

    private static String onlyKeyEntry(KeyStore store) throws GeneralSecurityException {
        List<String> keys = new ArrayList<>();
        for (String a : Collections.list(store.aliases())) {
            if (store.isKeyEntry(a)) {
                keys.add(a);
            }
        }
        if (keys.size() != 1) {
            throw refusal("holds " + keys.size() + " private keys; name one with " + ALIAS_KEY);
        }
        return keys.get(0);
    }

    private static IllegalArgumentException refusal(String what) {
        return new IllegalArgumentException("SYNAPSE refuses to serve: " + KEYSTORE_KEY + ": " + what);
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw refusal("its certificate cannot be encoded");
        }
    }

    /** {@code sha256:<hex>} of the certificate presented: what the peer's grant names as {@code cert_pin}. */
    public String pin() {
        return pin;
    }

    /** The key entry presented. */
    public String alias() {
        return alias;
    }

    /**
     * A key manager that always offers this one entry: a peer with a self-signed certificate in its
     * trust store lists that certificate's subject as the acceptable issuer, and the JDK's own manager
     * would withhold a certificate whose issuer is not listed; the peer checks the pin anyway.
     */
    X509ExtendedKeyManager keyManager() {
        return new X509ExtendedKeyManager() {
            @Override
            public String[] getClientAliases(String keyType, Principal[] issuers) {
                return new String[] {alias};
            }

            @Override
            public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                return alias;
            }

            @Override
            public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
                return alias;
            }

            @Override
            public String[] getServerAliases(String keyType, Principal[] issuers) {
                return null;
            }

            @Override
            public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                return null;
            }

            @Override
            public X509Certificate[] getCertificateChain(String requested) {
                return alias.equals(requested) ? chain.clone() : null;
            }

            @Override
            public PrivateKey getPrivateKey(String requested) {
                return alias.equals(requested) ? key : null;
            }
        };
    }
}
