package org.switchboard.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;

/** Self-signed keystores for the federation TLS tests, made by the JDK's keytool (the password through its environment). */
public final class TestKeystores {

    private TestKeystores() {
    }

    /** A PKCS12 keystore at {@code file} with one EC key entry {@code alias} for CN={@code cn}. */
    public static Path create(Path file, String alias, String cn, String password) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        ProcessBuilder builder = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + cn, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
                "-storepass:env", "TEST_KS_PASS", "-keypass:env", "TEST_KS_PASS");
        builder.environment().put("TEST_KS_PASS", password);
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, "keytool: " + output);
        return file;
    }

    private static Path shared;

    /**
     * One keystore made once per test JVM (entry {@code peer}, CN=hub-a, password {@link #SHARED_PASSWORD}),
     * for tests that only need some certificate: keytool takes seconds on a loaded machine.
     */
    public static synchronized Path shared() throws IOException, InterruptedException {
        if (shared == null) {
            Path dir = java.nio.file.Files.createTempDirectory("federation-keystores");
            dir.toFile().deleteOnExit();
            shared = create(dir.resolve("shared.p12"), "peer", "hub-a", SHARED_PASSWORD);
            shared.toFile().deleteOnExit();
        }
        return shared;
    }

    /** The password of {@link #shared()}. */
    public static final String SHARED_PASSWORD = "shared-test-pass-7d2e";

    /** The certificate of entry {@code alias}. */
    public static X509Certificate certificate(Path file, String alias, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(file.toFile(), password.toCharArray());
        return (X509Certificate) store.getCertificate(alias);
    }

    /** The loaded keystore. */
    public static KeyStore load(Path file, String password) throws IOException, GeneralSecurityException {
        return KeyStore.getInstance(file.toFile(), password.toCharArray());
    }
}
