package org.switchboard.synapse.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.federation.TestKeystores;
import org.switchboard.synapse.federation.policy.CertificatePins;

class ClientCertificateCaptureTest {

    private static HttpServletRequest request(Object certificates, Principal principal) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> ClientCertificateCapture.CERTIFICATES.equals(args[0]) ? certificates : null;
                    case "getUserPrincipal" -> principal;
                    default -> null;
                });
    }

    @Test
    void thePresentedCertificatesPinBecomesTheUpgradesPrincipal() throws Exception {
        X509Certificate cert = TestKeystores.certificate(TestKeystores.shared(), "peer", TestKeystores.SHARED_PASSWORD);
        HttpServletRequest upgrading = ClientCertificateCapture.capture(request(new X509Certificate[] {cert}, null));
        assertEquals(CertificatePins.of(cert), ClientCertificateCapture.pin(upgrading.getUserPrincipal()));
    }

    @Test
    void withoutACertificateTheRequestIsUntouchedAndNoPinIsSeen() {
        Principal someone = () -> "client-certificate:sha256:" + "ab".repeat(32);
        HttpServletRequest plain = request(null, someone);
        assertSame(plain, ClientCertificateCapture.capture(plain));
        assertNull(ClientCertificateCapture.pin(plain.getUserPrincipal()), "only the capture's own principal type counts");
        HttpServletRequest empty = request(new X509Certificate[0], null);
        assertSame(empty, ClientCertificateCapture.capture(empty));
        assertNull(ClientCertificateCapture.pin((Object) "not a chain"));
    }
}
