package org.switchboard.synapse.hub;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.switchboard.synapse.federation.policy.CertificatePins;

/**
 * Carries the client certificate of a TLS upgrade to the WebSocket endpoint (synapse-advanced §4.2: a
 * peer hub proves itself by its pinned certificate on the live connection). The servlet request holds
 * the handshake's chain ({@value #CERTIFICATES}); the WebSocket container copies only the request's
 * user principal into the session, so the pin travels as a {@link CertificatePrincipal} there.
 */
final class ClientCertificateCapture {

    /** The servlet attribute holding the client's certificate chain on a TLS request. */
    static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";
    private static final Logger LOG = Logger.getLogger(ClientCertificateCapture.class.getName());

    /** The pin of the client certificate, as the endpoint finds it in {@code Session.getUserPrincipal()}. */
    record CertificatePrincipal(String pin) implements Principal {
        @Override
        public String getName() {
            return "client-certificate:" + pin;
        }
    }

    private ClientCertificateCapture() {
    }

    /** {@code request}, answering its user principal with the client certificate's pin when one was presented. */
    static HttpServletRequest capture(HttpServletRequest request) {
        String pin = pin(request.getAttribute(CERTIFICATES));
        if (pin == null) {
            return request;
        }
        CertificatePrincipal principal = new CertificatePrincipal(pin);
        return new HttpServletRequestWrapper(request) {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }
        };
    }

    /** The pin of the leaf certificate of a chain attribute, or null when there is none. */
    static String pin(Object attribute) {
        if (attribute instanceof X509Certificate[] chain && chain.length > 0 && chain[0] != null) {
            try {
                return CertificatePins.of(chain[0]);
            } catch (CertificateEncodingException e) {
                LOG.log(Level.FINE, "client certificate not encodable; treated as absent", e);
            }
        }
        return null;
    }

    /** The pin an endpoint's session carries, or null. */
    static String pin(Principal sessionPrincipal) {
        return sessionPrincipal instanceof CertificatePrincipal c ? c.pin() : null;
    }
}
