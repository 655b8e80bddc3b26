package org.switchboard.itests.deploy;

import static org.junit.jupiter.api.Assertions.assertAll;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.switchboard.itests.support.AppServer;
import org.switchboard.itests.support.AppServerSmoke;

/**
 * What each full-server deployment IT proves, on one server set up by our script: the fresh start serves
 * SYNAPSE and REDSYN and the server's own health endpoint reports the application ready; the log from the
 * setup through that smoke holds no stack trace; after a restart (stop, start) the same holds for the log
 * from the stop through the second smoke. The final stop is not checked: Payara Server's final
 * {@code stop-domain} still logs a SEVERE from its default managed scheduled executor in about half the
 * runs (testing.md, Full application servers).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class DeploymentScenario {

    private AppServer server;

    /** The server under test, not yet set up. */
    protected abstract AppServer newServer();

    @BeforeAll
    void setUpAndStart() {
        server = newServer().setUp();
        server.start();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.stop();
            System.out.println(server.getClass().getSimpleName() + " timings: " + server.timings());
        }
    }

    @Test
    @Order(1)
    void freshStartServesAndReportsReady() throws Exception {
        serves("first", "acme");
    }

    @Test
    @Order(2)
    void freshStartLogsNoStackTrace() {
        // the setup (with its deployment), the start and the smoke above
        AppServerSmoke.noStackTraceSinceStart(server);
    }

    @Test
    @Order(3)
    void restartServesAndLogsNoStackTrace() {
        server.restart();
        // the stop, the new start and the second smoke; both reported when both fail
        assertAll(() -> serves("second", "globex"), () -> AppServerSmoke.noStackTraceSinceStart(server));
    }

    private void serves(String prefix, String org) throws Exception {
        AppServerSmoke.serverReportsApplicationReady(server);
        AppServerSmoke.applicationHealth(server);
        AppServerSmoke.synapseChatAndMailboxReplay(server, prefix);
        AppServerSmoke.redsynSendTakeAck(server, org);
    }
}
