package org.switchboard.synapse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.switchboard.json.JsonText;

/**
 * Every open socket and the name→socket binding, on concurrent maps (no global lock). Also keeps
 * per-name liveness (§4.8) and the per-host socket counts behind the admission ceilings (§2.3).
 */
public final class ConnectionRegistry {

    /** A name with no reaction for longer than this is stale (seconds). */
    public static final double REACTION_WINDOW = 90;
    /** A waiter sidecar counts as live when seen within this window (seconds). */
    public static final double WAITER_FRESHNESS = 20;
    /** Sidecar suffixes, in capability-lookup order. */
    public static final String RX = "-rx";
    public static final String PANE_RX = "-pane-rx";

    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger openCount = new AtomicInteger();
    private final ConcurrentHashMap<String, Connection> byName = new ConcurrentHashMap<>();
    /**
     * The bound names in order, changed with {@link #byName} under its per-name lock: the roster is read in
     * order instead of sorted again on every change (a storm sorted the whole roster per registration).
     */
    private final ConcurrentSkipListSet<String> sortedNames = new ConcurrentSkipListSet<>();
    private final ConcurrentHashMap<String, AtomicInteger> perHost = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AgentActivity> activity = new ConcurrentHashMap<>();
    private final boolean staleTracking;
    /** Bumped on every change of the bound names, so the roster's text is rebuilt once per change (issue 20). */
    private final AtomicLong rosterVersion = new AtomicLong();
    private volatile RosterText rosterText = new RosterText(-1, "[]");

    /** The sorted roster as a JSON array, and the {@link #rosterVersion} it was built at (or after). */
    private record RosterText(long version, String json) {
    }

    /** A registry; {@code staleTracking} off makes every matched socket consume-live. */
    public ConnectionRegistry(boolean staleTracking) {
        this.staleTracking = staleTracking;
    }

    /** Outcome of the admission ceilings: 0 = admitted, else the close code with its reason. */
    public record Admission(int closeCode, String reason) {
        public boolean admitted() {
            return closeCode == 0;
        }
    }

    /**
     * Applies the ceilings of §2.3 in order (capacity, per host, unauthenticated) and registers the
     * socket when admitted.
     */
    public Admission admit(Connection connection, int maxClients, int maxPerHost, boolean secured, int maxUnauthenticated) {
        if (openCount.incrementAndGet() > maxClients) {
            openCount.decrementAndGet();
            return new Admission(4013, "hub at capacity");
        }
        AtomicInteger host = perHost.computeIfAbsent(connection.peer().remoteHost(), h -> new AtomicInteger());
        if (host.incrementAndGet() > maxPerHost && maxPerHost > 0) {
            host.decrementAndGet();
            openCount.decrementAndGet();
            return new Admission(4015, "too many connections from host");
        }
        if (secured && unboundCount() >= maxUnauthenticated) {
            host.decrementAndGet();
            openCount.decrementAndGet();
            return new Admission(4014, "too many unauthenticated connections");
        }
        open.add(connection);
        return new Admission(0, "");
    }

    /** Forgets a closed socket (does not unbind its name; see {@link #unbind}). */
    public void remove(Connection connection) {
        if (open.remove(connection)) {
            openCount.decrementAndGet();
            AtomicInteger host = perHost.get(connection.peer().remoteHost());
            if (host != null) {
                host.decrementAndGet();
            }
        }
    }

    public int connectedClients() {
        return open.size();
    }

    /** Open sockets not yet bound to a name. */
    public int unboundCount() {
        int unbound = 0;
        for (Connection c : open) {
            if (!c.isBound()) {
                unbound++;
            }
        }
        return unbound;
    }

    public Collection<Connection> openConnections() {
        return open;
    }

    /** The socket currently bound to {@code name}, or null. */
    public Connection socketOf(String name) {
        return byName.get(name);
    }

    /** Bound sockets (each name once). */
    public Collection<Connection> boundConnections() {
        return byName.values();
    }

    public Set<String> boundNames() {
        return byName.keySet();
    }

    public int onlineCount() {
        return byName.size();
    }

    /** Sorted bound names. */
    public List<String> roster() {
        return new ArrayList<>(sortedNames);
    }

    /**
     * The sorted bound names as a compact JSON array ({@code ["a","b"]}), the text every presence update
     * and welcome carries. Built once per change of the names and shared: in a connection storm each
     * registration's presence and each open's welcome would otherwise write the whole roster again.
     */
    public String rosterJson() {
        long version = rosterVersion.get();
        RosterText cached = rosterText;
        if (cached.version() == version) {
            return cached.json();
        }
        // built after reading the version, so it holds at least every change up to it
        StringBuilder out = new StringBuilder(16 + byName.size() * 24).append('[');
        boolean first = true;
        for (String name : sortedNames) {
            if (!first) {
                out.append(',');
            }
            first = false;
            JsonText.quote(out, name);
        }
        String json = out.append(']').toString();
        rosterText = new RosterText(version, json);
        return json;
    }

    /** Binds when free; returns the current holder when the name is taken by another socket. */
    public Connection bindIfFree(String name, Connection connection) {
        Connection[] taken = new Connection[1];
        byName.compute(name, (key, current) -> {
            if (current != null) {
                taken[0] = current;
                return current;
            }
            sortedNames.add(key);
            return connection;
        });
        Connection holder = taken[0];
        if (holder == null) {
            rosterVersion.incrementAndGet();
        }
        if (holder == null || holder == connection) {
            connection.name(name);
            return null;
        }
        return holder;
    }

    /** Atomically moves {@code name} from {@code previous} to {@code successor} (takeover). */
    public boolean rebind(String name, Connection previous, Connection successor) {
        if (byName.replace(name, previous, successor)) {
            previous.superseded(true);
            successor.name(name);
            return true;
        }
        return false;
    }

    /** Unbinds {@code name} only if {@code connection} still holds it. */
    public boolean unbind(String name, Connection connection) {
        boolean[] held = new boolean[1];
        byName.computeIfPresent(name, (key, current) -> {
            if (current != connection) {
                return current;
            }
            held[0] = true;
            sortedNames.remove(key);
            return null;
        });
        boolean removed = held[0];
        if (removed) {
            rosterVersion.incrementAndGet();
            AgentActivity agent = activity.get(name);
            if (agent != null) {
                agent.forgetReaction();
            }
        }
        return removed;
    }

    /** Roles of the bound name (empty when offline). */
    public List<String> rolesOf(String name) {
        Connection c = byName.get(name);
        return c == null ? List.of() : c.roles();
    }

    /** {@code {name: roles}} for bound names that hold roles. */
    public Map<String, List<String>> agentRoles() {
        Map<String, List<String>> roles = new java.util.TreeMap<>();
        for (Map.Entry<String, Connection> e : byName.entrySet()) {
            if (!e.getValue().roles().isEmpty()) {
                roles.put(e.getKey(), e.getValue().roles());
            }
        }
        return roles;
    }

    // ---- liveness (§4.8) ----

    /** Records a frame from {@code name}. */
    public void touch(String name, double now) {
        activity.computeIfAbsent(name, n -> new AgentActivity()).seen(now);
    }

    /** Records a reaction (registration or non-heartbeat frame). */
    public void react(String name, double now) {
        activity.computeIfAbsent(name, n -> new AgentActivity()).reacted(now);
    }

    /** Every name seen by this process with its last-seen stamp. */
    public Map<String, AgentActivity> activity() {
        return activity;
    }

    /** No reaction within the window. */
    public boolean isStale(String name, double now) {
        AgentActivity agent = activity.get(name);
        return agent == null || Double.isNaN(agent.lastReaction()) || now - agent.lastReaction() > REACTION_WINDOW;
    }

    /** {@code name-rx} or {@code name-pane-rx} is bound and fresh. */
    public boolean hasLiveWaiter(String name, double now) {
        return freshSidecar(name + RX, now) || freshSidecar(name + PANE_RX, now);
    }

    private boolean freshSidecar(String sidecar, double now) {
        if (!byName.containsKey(sidecar)) {
            return false;
        }
        AgentActivity agent = activity.get(sidecar);
        return agent != null && now - agent.lastSeen() <= WAITER_FRESHNESS;
    }

    /** A matched recipient that can consume: live waiter or not stale (always true without tracking). */
    public boolean consumeLive(String name, double now) {
        return !staleTracking || hasLiveWaiter(name, now) || !isStale(name, now);
    }

    public boolean staleTracking() {
        return staleTracking;
    }

    /** Logical owner of a sidecar name ({@code x/y-rx} → {@code x/y}); other names own themselves. */
    public static String waiterOwner(String name) {
        if (name.endsWith(PANE_RX) && name.length() > PANE_RX.length()) {
            return name.substring(0, name.length() - PANE_RX.length());
        }
        if (name.endsWith(RX) && name.length() > RX.length()) {
            return name.substring(0, name.length() - RX.length());
        }
        return name;
    }

    /** Own declared capability, else the -pane-rx sidecar's, else the -rx sidecar's; null when unknown. */
    public String wakeCapabilityOf(String name) {
        for (String candidate : new String[] {name, name + PANE_RX, name + RX}) {
            Connection c = byName.get(candidate);
            if (c != null && c.wakeCapability() != null) {
                return c.wakeCapability();
            }
        }
        return null;
    }

    /** Sockets serving a logical identity: its own and its sidecars' (those bound). */
    public void socketsOf(String name, java.util.function.Consumer<Connection> sink) {
        Connection own = byName.get(name);
        if (own != null) {
            sink.accept(own);
        }
        Connection rx = byName.get(name + RX);
        if (rx != null) {
            sink.accept(rx);
        }
        Connection pane = byName.get(name + PANE_RX);
        if (pane != null) {
            sink.accept(pane);
        }
    }
}
