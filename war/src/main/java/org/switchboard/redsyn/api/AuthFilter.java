package org.switchboard.redsyn.api;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;
import org.switchboard.redsyn.RedsynConfig;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.AccountService;
import org.switchboard.redsyn.directory.Tokens;

/**
 * Bearer authentication: node tokens for {@code /redsyn/v1}, the operator token for
 * {@code /redsyn/admin} (which does not exist at all while {@code redsyn.admin.token} is unset).
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
@ApplicationScoped
public class AuthFilter implements ContainerRequestFilter {

    @Inject
    AccountService accounts;

    @Inject
    RedsynConfig config;

    @Override
    public void filter(ContainerRequestContext request) {
        String path = VersionFilter.path(request);
        String token = bearer(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (path.startsWith("admin")) {
            String admin = config.adminToken().orElse(null);
            if (admin == null) {
                request.abortWith(Errors.response(404, "the admin API is off: set redsyn.admin.token"));
            } else if (!Tokens.sameSecret(admin, token)) {
                request.abortWith(Errors.response(401, "admin calls need Authorization: Bearer <redsyn.admin.token>"));
            }
            return;
        }
        if (token == null) {
            request.abortWith(Errors.response(401, "every call needs Authorization: Bearer <node token>"));
            return;
        }
        Caller caller = accounts.authenticate(token);
        if (caller == null) {
            request.abortWith(Errors.response(401, "unknown token"));
            return;
        }
        boolean secure = request.getSecurityContext() != null && request.getSecurityContext().isSecure();
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return caller;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "Bearer";
            }
        });
    }

    private static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** The authenticated caller of a {@code /redsyn/v1} request. */
    public static Caller caller(SecurityContext context) {
        return (Caller) context.getUserPrincipal();
    }
}
