package org.switchboard.itests.deploy;

import org.switchboard.itests.support.AppServer;
import org.switchboard.itests.support.AppServerSmoke;

/**
 * The EAR on WildFly 39 (standalone-full plus MicroProfile Health), prepared by server-config/setup-wildfly:
 * the checks of {@link DeploymentScenario} on a fresh start and a restart.
 */
class WildFlyDeploymentIT extends DeploymentScenario {

    @Override
    protected AppServer newServer() {
        return AppServer.wildFly(AppServerSmoke.environment());
    }
}
