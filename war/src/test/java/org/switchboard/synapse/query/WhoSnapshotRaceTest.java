package org.switchboard.synapse.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.session.AgentActivity;

/**
 * {@code who_snapshot.agent_liveness.last_reaction_age} while another thread records and forgets the
 * agent's reaction (a reaction, then the agent's socket unbinding): the age is a number or null, never
 * NaN, and the requester is never closed (a NaN made the JSON builder throw, which closed it with 1011).
 */
class WhoSnapshotRaceTest {

    @Test
    void aReactionResetWhileWhoIsBuiltNeverBreaksTheSnapshot() throws Exception {
        TestHub test = new TestHub();
        TestHub.Client asker = test.register("proj/asker");
        test.register("proj/busy");
        AgentActivity busy = test.hub.context().registry().activity().get("proj/busy");
        Method reacted = AgentActivity.class.getDeclaredMethod("reacted", double.class);
        Method forget = AgentActivity.class.getDeclaredMethod("forgetReaction");
        reacted.setAccessible(true);
        forget.setAccessible(true);
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = new Thread(() -> {
            try {
                while (!stop.get()) {
                    reacted.invoke(busy, 1_767_225_000.0);
                    forget.invoke(busy);
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
        flipper.start();
        int nulls = 0;
        int numbers = 0;
        try {
            for (int i = 0; i < 20_000; i++) {
                asker.send(TestHub.frame("who_request", "System", "who"));
                if (!asker.peer().isOpen()) {
                    break;
                }
                JsonObject who = asker.peer().lastOfType("who_snapshot");
                JsonValue age = who.getJsonObject("agent_liveness").getJsonObject("proj/busy").get("last_reaction_age");
                if (age == JsonValue.NULL) {
                    nulls++;
                } else {
                    numbers++;
                }
                asker.peer().clear();
            }
        } finally {
            stop.set(true);
            flipper.join();
        }
        assertTrue(asker.peer().isOpen(), "requester closed with " + asker.peer().closeCode() + " after "
                + nulls + " null and " + numbers + " numeric ages");
        assertEquals(0, asker.peer().closeCode());
        assertEquals(20_000, nulls + numbers);
    }
}
