package org.switchboard.itests.deploy;

import org.switchboard.itests.support.AppServer;
import org.switchboard.itests.support.AppServerSmoke;

/**
 * The EAR on Payara Server 6, prepared by server-config/setup-payara-server: the checks of
 * {@link DeploymentScenario} on a fresh start and a restart.
 */
class PayaraServerDeploymentIT extends DeploymentScenario {

    @Override
    protected AppServer newServer() {
        return AppServer.payaraServer(AppServerSmoke.environment());
    }
}
