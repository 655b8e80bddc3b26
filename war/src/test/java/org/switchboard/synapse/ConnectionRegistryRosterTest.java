package org.switchboard.synapse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.switchboard.synapse.wire.JsonFields;

/** The roster's JSON text is the sorted bound names, built once per change of the names and shared until the next. */
class ConnectionRegistryRosterTest {

    private static Connection socket() {
        return new Connection(new FakePeer(), 0);
    }

    @Test
    void theRosterTextIsTheSortedNamesAsTheProviderWritesThem() {
        ConnectionRegistry registry = new ConnectionRegistry(true);
        assertEquals("[]", registry.rosterJson());
        registry.bindIfFree("proj/zed", socket());
        registry.bindIfFree("proj/\"quoted\"\\name", socket());
        registry.bindIfFree("proj/alice", socket());
        assertEquals(JsonFields.array(registry.roster()).toString(), registry.rosterJson());
        assertEquals("[\"proj/\\\"quoted\\\"\\\\name\",\"proj/alice\",\"proj/zed\"]", registry.rosterJson());
    }

    @Test
    void theTextIsSharedUntilTheNamesChange() {
        ConnectionRegistry registry = new ConnectionRegistry(true);
        Connection bob = socket();
        registry.bindIfFree("proj/bob", bob);
        String first = registry.rosterJson();
        assertSame(first, registry.rosterJson(), "no change: the same text, not built again");

        Connection intruder = socket();
        registry.bindIfFree("proj/bob", intruder); // refused: the name is taken
        assertSame(first, registry.rosterJson(), "a refused bind changes nothing");

        Connection carol = socket();
        registry.bindIfFree("proj/carol", carol);
        String second = registry.rosterJson();
        assertNotSame(first, second);
        assertEquals("[\"proj/bob\",\"proj/carol\"]", second);

        registry.unbind("proj/carol", carol);
        assertEquals("[\"proj/bob\"]", registry.rosterJson(), "an unbind is a change");
        Connection successor = socket();
        registry.rebind("proj/bob", bob, successor);
        assertEquals("[\"proj/bob\"]", registry.rosterJson(), "a takeover keeps the names");
        registry.unbind("proj/bob", bob);
        assertEquals("[\"proj/bob\"]", registry.rosterJson(), "the superseded socket's unbind leaves its successor's name");
        registry.unbind("proj/bob", successor);
        assertEquals("[]", registry.rosterJson());
        assertEquals(java.util.List.of(), registry.roster());
    }

    @Test
    void namesBoundAndUnboundFromManyThreadsLeaveTheRosterEqualToTheBoundNames() throws Exception {
        ConnectionRegistry registry = new ConnectionRegistry(true);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<?>> work = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        String name = "p/n" + (i % 37); // threads race for the same names
                        Connection c = socket();
                        if (registry.bindIfFree(name, c) == null && i % 3 != 0) {
                            registry.unbind(name, c);
                        }
                    }
                    return null;
                }));
            }
            for (var f : work) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        java.util.List<String> bound = new java.util.ArrayList<>(registry.boundNames());
        bound.sort(null);
        assertEquals(bound, registry.roster());
        assertEquals(JsonFields.array(bound).toString(), registry.rosterJson());
    }
}
