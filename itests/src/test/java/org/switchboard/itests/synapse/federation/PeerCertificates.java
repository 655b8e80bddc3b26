package org.switchboard.itests.synapse.federation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The keytool steps of the operator guide's "Peering over {@code wss://} with client certificates", run as
 * written (same options, passwords through {@code -storepass:env}), so an IT following them checks the guide.
 */
public final class PeerCertificates {

    /** The variable the guide's step 2 passes the client keystore's password in (also what the origin hub reads). */
    public static final String CLIENT_PASSWORD_ENV = "HUB_MESSAGE_PEER_KEYSTORE_PASSWORD";
    /** The variable of the guide's step 3 (also what run-hub reads). */
    public static final String TRUSTSTORE_PASSWORD_ENV = "HUB_TLS_TRUSTSTORE_PASSWORD";

    private PeerCertificates() {
    }

    /**
     * Step 2: {@code keytool -genkeypair -alias <hubId> -keyalg EC -groupname secp256r1 -dname CN=<hubId>
     * -validity 365 -storetype PKCS12 -keystore <keystore> -storepass:env … -keypass:env …}.
     */
    public static Path clientKey(Path keystore, String hubId, String password) throws IOException, InterruptedException {
        Files.deleteIfExists(keystore);
        keytool(CLIENT_PASSWORD_ENV, password, "-genkeypair", "-alias", hubId, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + hubId, "-validity", "365", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass:env", CLIENT_PASSWORD_ENV, "-keypass:env", CLIENT_PASSWORD_ENV);
        return ownerOnly(keystore); // the guide works under umask 077
    }

    /**
     * Step 2's export (and step 6's for the receiver's own certificate): {@code keytool -exportcert -alias
     * <alias> -keystore <keystore> -storepass:env <passwordEnv> -rfc -file <pem>}.
     */
    public static Path exportPem(Path keystore, String alias, String passwordEnv, String password, Path pem)
            throws IOException, InterruptedException {
        Files.deleteIfExists(pem);
        keytool(passwordEnv, password, "-exportcert", "-alias", alias, "-keystore", keystore.toString(),
                "-storepass:env", passwordEnv, "-rfc", "-file", pem.toString());
        return pem;
    }

    /**
     * Step 3: {@code keytool -importcert -noprompt -alias <alias> -file <pem> -storetype PKCS12 -keystore
     * <truststore> -storepass:env HUB_TLS_TRUSTSTORE_PASSWORD} (creates the trust store on the first import).
     */
    public static Path importCert(Path truststore, String alias, Path pem, String password)
            throws IOException, InterruptedException {
        keytool(TRUSTSTORE_PASSWORD_ENV, password, "-importcert", "-noprompt", "-alias", alias, "-file", pem.toString(),
                "-storetype", "PKCS12", "-keystore", truststore.toString(), "-storepass:env", TRUSTSTORE_PASSWORD_ENV);
        return ownerOnly(truststore);
    }

    /**
     * {@code sha256:} and the hex of {@code openssl x509 -in <pem> -outform der | sha256sum}: the SHA-256 of
     * the certificate's DER, as a grant's {@code cert_pin} and {@code HUB_MESSAGE_PEER_PINS} name it.
     */
    public static String pin(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(der));
        }
    }

    private static Path ownerOnly(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /** Runs the JDK's keytool with {@code passwordEnv}={@code password} in its environment only (never on its command line). */
    private static void keytool(String passwordEnv, String password, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(passwordEnv, password);
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, "keytool " + args[0] + ": " + output);
    }
}
