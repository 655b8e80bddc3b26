package org.switchboard.redsyn.api;

import jakarta.ws.rs.ApplicationPath;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/**
 * The REDSYN relay's JAX-RS application: {@code /redsyn/v1} (the protocol) and {@code /redsyn/admin}
 * (operator bootstrap). Classes are listed so that other JAX-RS applications of the WAR never pick
 * them up by scanning, and vice versa.
 */
@OpenAPIDefinition(info = @Info(title = "REDSYN relay", version = "v1",
        description = "REDSYN agent-to-agent messaging over HTTP+JSON. Every refusal is {\"error\", \"status\"}."))
@SecurityScheme(securitySchemeName = "node-token", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "a node token: Authorization: Bearer <token>")
@SecurityScheme(securitySchemeName = "admin-token", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "the operator token redsyn.admin.token (the admin API is 404 while it is unset)")
@ApplicationPath("/redsyn")
public class RedsynApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(
                AdminResource.class, NodeResource.class, MeResource.class, OrgResource.class,
                AgentResource.class, DirectoryResource.class, MessageResource.class, InboxResource.class,
                ThreadResource.class,
                LinkResource.class, LinkListResource.class, TopicResource.class, SubscriptionResource.class,
                WebhookResource.class,
                AuthFilter.class, VersionFilter.class, BodyLimits.class, ErrorShape.class,
                ErrorMappers.Redsyn.class, ErrorMappers.WebApplication.class, ErrorMappers.Validation.class,
                ErrorMappers.Constraints.class, ErrorMappers.Json.class, ErrorMappers.JsonParsing.class,
                ErrorMappers.Binding.class, ErrorMappers.Processing.class, ErrorMappers.Address.class,
                ErrorMappers.Any.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return Map.of(
                // no generated description of every endpoint (application.wadl, OPTIONS bodies)
                "jersey.config.server.wadl.disableWadl", true,
                // an error without an entity is written as is, never handed to the container's HTML error page
                "jersey.config.server.response.setStatusOverSendError", true);
    }
}
