package org.switchboard.redsyn.limit;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The document's Free, Pro and Enterprise plans, until plans become configurable. */
@ApplicationScoped
public class BuiltInPlans implements PlanCatalog {

    @Override
    public Plan plan(String name) {
        return Plan.named(name);
    }

    @Override
    public List<String> names() {
        return List.of("free", "pro", "enterprise");
    }
}
