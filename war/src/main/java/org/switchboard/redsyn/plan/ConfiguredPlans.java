package org.switchboard.redsyn.plan;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The plan table of this relay: the document's plans plus whatever {@code redsyn.plans.*} configures,
 * read once at start-up (see {@link PlanTable}).
 */
@ApplicationScoped
public class ConfiguredPlans implements PlanCatalog {

    private Map<String, Plan> plans;
    private List<String> names;

    @PostConstruct
    void load() {
        Config config = ConfigProvider.getConfig();
        Map<String, Plan> table = PlanTable.build(config.getPropertyNames(), System.getenv().keySet(),
                key -> config.getOptionalValue(key, String.class));
        plans = Map.copyOf(table);
        names = List.copyOf(table.keySet());
    }

    /** Reads the table when the application starts, so that a bad plan key stops the deployment, not a later call. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        names();
    }

    @Override
    public Plan plan(String name) {
        return name == null ? null : plans.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public List<String> names() {
        return names;
    }
}
