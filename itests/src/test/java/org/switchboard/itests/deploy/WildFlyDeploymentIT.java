package org.switchboard.itests.deploy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.AppServer;
import org.switchboard.itests.support.AppServerSmoke;

/**
 * The EAR on WildFly 39 (standalone-full plus MicroProfile Health), prepared by server-config/setup-wildfly:
 * SYNAPSE and REDSYN work, and neither a fresh start (with the setup's deployment) nor a restart (stop and
 * start) logs a stack trace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WildFlyDeploymentIT {

    private static AppServer server;

    @BeforeAll
    static void start() {
        server = AppServer.wildFly(AppServerSmoke.environment()).setUp();
        server.start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    @Order(1)
    void freshStartLogsNoStackTrace() {
        AppServerSmoke.noStackTraceSinceStart(server);
    }

    @Test
    @Order(2)
    void applicationHealthAnswers() throws Exception {
        AppServerSmoke.applicationHealth(server);
    }

    @Test
    @Order(3)
    void synapseChatRoundTripAndMailboxReplay() {
        AppServerSmoke.synapseChatAndMailboxReplay(server, "first");
    }

    @Test
    @Order(4)
    void redsynSendTakeAck() {
        AppServerSmoke.redsynSendTakeAck(server, "acme");
    }

    @Test
    @Order(5)
    void restartLogsNoStackTraceAndKeepsServing() throws Exception {
        server.restart();
        AppServerSmoke.noStackTraceSinceStart(server); // the stop and the new start
        AppServerSmoke.applicationHealth(server);
        AppServerSmoke.synapseChatAndMailboxReplay(server, "second");
        AppServerSmoke.redsynSendTakeAck(server, "globex");
    }
}
