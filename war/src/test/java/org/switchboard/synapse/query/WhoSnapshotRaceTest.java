package org.switchboard.synapse.query;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.TestHub;
import org.switchboard.synapse.AgentActivity;

/**
 * {@code who_snapshot.agent_liveness.last_reaction_age} while another thread records and forgets the
 * agent's reaction (a reaction, then the agent's socket unbinding): the age is a number of at least 0
 * or null, never NaN. Built from a check and a second read, a reset in between gave NaN, which the
 * JSON builder refuses with an exception (the requester was closed with 1011). A stress test: it
 * stops at the first broken snapshot.
 */
class WhoSnapshotRaceTest {

    private static final int SNAPSHOTS = 200_000;

    @Test
    void aReactionResetWhileWhoIsBuiltNeverBreaksTheSnapshot() throws Throwable {
        TestHub test = new TestHub();
        test.register("proj/asker");
        test.register("proj/busy");
        AgentActivity busy = test.hub.context().registry().activity().get("proj/busy");
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(AgentActivity.class, MethodHandles.lookup());
        MethodHandle reacted = lookup.findVirtual(AgentActivity.class, "reacted", MethodType.methodType(void.class, double.class));
        MethodHandle forget = lookup.findVirtual(AgentActivity.class, "forgetReaction", MethodType.methodType(void.class));
        QueryHandler queries = new QueryHandler(test.hub.chat(), test.hub.mailbox(), List::of);
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = new Thread(() -> {
            try {
                while (!stop.get()) {
                    reacted.invokeExact(busy, 1_767_225_000.0);
                    forget.invokeExact(busy);
                }
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        });
        flipper.start();
        int nulls = 0;
        int numbers = 0;
        try {
            for (int i = 0; i < SNAPSHOTS; i++) {
                JsonObject who;
                try {
                    who = queries.who("proj/asker", test.hub.context());
                } catch (RuntimeException e) {
                    throw new AssertionError("who_snapshot failed after " + nulls + " null and " + numbers
                            + " numeric ages: " + e, e);
                }
                JsonValue age = who.getJsonObject("agent_liveness").getJsonObject("proj/busy").get("last_reaction_age");
                if (age == JsonValue.NULL) {
                    nulls++;
                } else {
                    assertTrue(((JsonNumber) age).doubleValue() >= 0, "age " + age);
                    numbers++;
                }
            }
        } finally {
            stop.set(true);
            flipper.join();
        }
        assertTrue(nulls > 0 && numbers > 0, "both states were seen: " + nulls + " null, " + numbers + " numeric");
    }
}
