package org.switchboard.redsyn.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The REDSYN relay's JAX-RS application: {@code /redsyn/v1} (the protocol) and {@code /redsyn/admin}
 * (operator bootstrap). Classes are listed so that other JAX-RS applications of the WAR never pick
 * them up by scanning, and vice versa.
 */
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
                AuthFilter.class, VersionFilter.class,
                ErrorMappers.Redsyn.class, ErrorMappers.WebApplication.class, ErrorMappers.Validation.class,
                ErrorMappers.Json.class, ErrorMappers.Binding.class, ErrorMappers.Processing.class,
                ErrorMappers.Address.class, ErrorMappers.Any.class);
    }
}
