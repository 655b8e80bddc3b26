package org.switchboard.redsyn.plan;

import java.util.List;

/** Where plans come from: the seam the configurable plan table plugs into. */
public interface PlanCatalog {

    /** The plan with this name, or null when there is none. */
    Plan plan(String name);

    /** Names of the plans a person can be put on. */
    List<String> names();

    /** The plan new persons get. */
    default String defaultPlan() {
        return "free";
    }
}
