package org.switchboard.synapse;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.concurrent.Executor;
import org.switchboard.synapse.hub.SynapseHub;

/** A synchronous {@link SynapseHub} with an adjustable clock, plus helpers to connect and register fake sockets. */
public final class TestHub {

    public final SynapseHub hub;
    public final InMemoryJournal journal;
    private double now = 1_767_225_600.0;

    public TestHub(SynapseSettings settings, InMemoryJournal journal) {
        this(settings, journal, Runnable::run);
    }

    /** A hub whose blocking work (journal reads) runs on {@code blocking}, e.g. a queue the test drains. */
    public TestHub(SynapseSettings settings, InMemoryJournal journal, Executor blocking) {
        this(settings, journal, blocking, Runnable::run);
    }

    /** A hub whose journal reads run on {@code blocking} and whose chat fan-out runs on {@code publish}. */
    public TestHub(SynapseSettings settings, InMemoryJournal journal, Executor blocking, Executor publish) {
        this.journal = journal;
        this.hub = new SynapseHub(settings, journal, () -> now, blocking, publish, List::of);
        hub.replayJournal();
    }

    public TestHub(InMemoryJournal journal) {
        this(SynapseSettings.defaults(), journal);
    }

    public TestHub() {
        this(new InMemoryJournal());
    }

    public void advance(double seconds) {
        now += seconds;
    }

    /** An open socket (welcome already sent on an open hub). */
    public Client connect(String name) {
        FakePeer peer = new FakePeer();
        Connection connection = new Connection(peer, now);
        hub.opened(connection);
        return new Client(this, name, peer, connection);
    }

    /** Connects and registers with extra registration fields. */
    public Client register(String name, JsonObjectBuilder extra) {
        Client client = connect(name);
        JsonObjectBuilder heartbeat = frame("heartbeat", "System", "online").add("sender", name);
        if (extra != null) {
            extra.build().forEach(heartbeat::add);
        }
        client.sendRaw(heartbeat.build().toString());
        return client;
    }

    public Client register(String name) {
        return register(name, null);
    }

    public static JsonObjectBuilder frame(String type, String target, String payload) {
        return Json.createObjectBuilder().add("type", type).add("target", target).add("payload", payload)
                .add("timestamp", 1_767_225_599.5);
    }

    /** One fake client. */
    public record Client(TestHub test, String name, FakePeer peer, Connection connection) {

        public void sendRaw(String text) {
            test.hub.dispatcher().onText(connection, text);
        }

        public void send(JsonObjectBuilder frame) {
            JsonObject built = frame.build();
            if (!built.containsKey("sender")) {
                built = Json.createObjectBuilder(built).add("sender", name).build();
            }
            sendRaw(built.toString());
        }

        public void chat(String target, String payload) {
            send(frame("chat", target, payload));
        }

        /** Closes from the client side and runs the hub's disconnect path. */
        public void disconnect() {
            peer.close(1000, "bye");
            test.hub.closed(connection);
        }
    }
}
