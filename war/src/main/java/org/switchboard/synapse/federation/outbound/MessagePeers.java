package org.switchboard.synapse.federation.outbound;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The origin side's peer list (synapse-advanced §4.2): {@code hub.message-peers} ({@code id=uri,…}),
 * {@code hub.message-peer-pins} ({@code id=sha256:<hex>} per {@code wss://} peer), the forward TTL
 * and the client certificate for mutual TLS ({@code hub.message-peer-keystore}), parsed strictly. A fault is one line naming the key (never the token); the hub then refuses to serve.
 */
public final class MessagePeers {

    public static final String PEERS_KEY = "hub.message-peers";
    public static final String TOKEN_KEY = "hub.message-peer-token";
    public static final String PINS_KEY = "hub.message-peer-pins";
    public static final String TTL_KEY = "hub.message-forward-ttl-seconds";
    public static final String MAX_BACKOFF_KEY = "hub.message-forward-max-backoff-seconds";
    public static final String MAX_PENDING_PER_PEER_KEY = "hub.message-forward-max-pending-per-peer";
    public static final String MAX_PENDING_BYTES_KEY = "hub.message-forward-max-pending-bytes";
    /** Default per-peer cap: five times the outage benchmark (10,000 queued in 60 s). */
    public static final long DEFAULT_MAX_PENDING_PER_PEER = 50_000;
    /** Default hub-wide cap on the heap counted for pending forwards (256 MiB). */
    public static final long DEFAULT_MAX_PENDING_BYTES = 256L * 1024 * 1024;

    private static final Pattern PIN = Pattern.compile("^sha256:[0-9a-fA-F]{64}$");

    /** One configured peer: its hub id, where it listens, and the certificate pin ({@code null} on loopback {@code ws://}). */
    public record Peer(String id, URI uri, String pinHex) {
        /** True for {@code wss://}. */
        public boolean tls() {
            return "wss".equals(uri.getScheme());
        }
    }

    private final Map<String, Peer> peers;
    private final String fault;
    private final long ttlSeconds;
    private final long maxBackoffSeconds;
    private final long maxPendingPerPeer;
    private final long maxPendingBytes;
    /** The client certificate presented to {@code wss://} peers; null: none (mutual TLS off). */
    private final PeerClientIdentity clientIdentity;

    private MessagePeers(Map<String, Peer> peers, String fault, long ttlSeconds) {
        this(peers, fault, ttlSeconds, ForwardBackoff.CAP_SECONDS);
    }

    private MessagePeers(Map<String, Peer> peers, String fault, long ttlSeconds, long maxBackoffSeconds) {
        this(peers, fault, ttlSeconds, maxBackoffSeconds, DEFAULT_MAX_PENDING_PER_PEER, DEFAULT_MAX_PENDING_BYTES);
    }

    private MessagePeers(Map<String, Peer> peers, String fault, long ttlSeconds, long maxBackoffSeconds,
                         long maxPendingPerPeer, long maxPendingBytes) {
        this(peers, fault, ttlSeconds, maxBackoffSeconds, maxPendingPerPeer, maxPendingBytes, null);
    }

    private MessagePeers(Map<String, Peer> peers, String fault, long ttlSeconds, long maxBackoffSeconds,
                         long maxPendingPerPeer, long maxPendingBytes, PeerClientIdentity clientIdentity) {
        this.clientIdentity = clientIdentity;
        this.peers = Collections.unmodifiableMap(peers);
        this.fault = fault;
        this.ttlSeconds = ttlSeconds;
        this.maxBackoffSeconds = maxBackoffSeconds;
        this.maxPendingPerPeer = maxPendingPerPeer;
        this.maxPendingBytes = maxPendingBytes;
    }

    /**
     * The same peers with the outbox caps: at most {@code perPeer} pending forwards to one peer and
     * {@code bytes} of heap counted for all pending forwards ({@link ForwardOutbox#footprint}); both ≥ 1.
     */
    public MessagePeers withPendingCaps(long perPeer, long bytes) {
        if (fault != null) {
            return this;
        }
        if (perPeer < 1) {
            return new MessagePeers(new LinkedHashMap<>(), refusal(MAX_PENDING_PER_PEER_KEY, "must be at least 1"), ttlSeconds);
        }
        if (bytes < ForwardOutbox.ENTRY_OVERHEAD_BYTES) {
            return new MessagePeers(new LinkedHashMap<>(), refusal(MAX_PENDING_BYTES_KEY,
                    "must be at least " + ForwardOutbox.ENTRY_OVERHEAD_BYTES + " bytes"), ttlSeconds);
        }
        return new MessagePeers(new LinkedHashMap<>(peers), null, ttlSeconds, maxBackoffSeconds, perPeer, bytes, clientIdentity);
    }

    /**
     * The same peers presenting the client certificate of {@code keystore} ({@value PeerClientIdentity#KEYSTORE_KEY})
     * to {@code wss://} peers; {@code keystore} null or blank: none. {@code password} is cleared; a
     * keystore that cannot be used leaves no peers and a {@link #fault()} naming the key.
     */
    public MessagePeers withClientKeystore(String keystore, char[] password, String alias) {
        if (keystore == null || keystore.isBlank()) {
            if (password != null) {
                java.util.Arrays.fill(password, '\0');
            }
            return this;
        }
        if (fault != null) {
            java.util.Arrays.fill(password == null ? new char[0] : password, '\0');
            return this;
        }
        try {
            PeerClientIdentity identity = PeerClientIdentity.load(java.nio.file.Path.of(keystore.strip()), password, alias);
            return new MessagePeers(new LinkedHashMap<>(peers), null, ttlSeconds, maxBackoffSeconds, maxPendingPerPeer,
                    maxPendingBytes, identity);
        } catch (IllegalArgumentException e) {
            return new MessagePeers(new LinkedHashMap<>(), e.getMessage(), ttlSeconds);
        }
    }

    /** The client certificate presented to {@code wss://} peers, or null when none is configured. */
    public PeerClientIdentity clientIdentity() {
        return clientIdentity;
    }

    /** Most pending forwards one peer may hold ({@value #MAX_PENDING_PER_PEER_KEY}). */
    public long maxPendingPerPeer() {
        return maxPendingPerPeer;
    }

    /** Most heap counted for all pending forwards ({@value #MAX_PENDING_BYTES_KEY}). */
    public long maxPendingBytes() {
        return maxPendingBytes;
    }

    /** The same peers with retries spaced at most {@code seconds} apart ({@code hub.message-forward-max-backoff-seconds}). */
    public MessagePeers withMaxBackoff(long seconds) {
        if (seconds < 1 && fault == null) {
            return new MessagePeers(new LinkedHashMap<>(), refusal(MAX_BACKOFF_KEY, "must be at least 1 second"), ttlSeconds);
        }
        return new MessagePeers(new LinkedHashMap<>(peers), fault, ttlSeconds, Math.min(ForwardBackoff.CAP_SECONDS, seconds),
                maxPendingPerPeer, maxPendingBytes, clientIdentity);
    }

    /** Longest wait between two attempts (at most 300 s). */
    public long maxBackoffSeconds() {
        return maxBackoffSeconds;
    }

    /** No peers: every hub-qualified target is refused. */
    public static MessagePeers none() {
        return new MessagePeers(new LinkedHashMap<>(), null, 86400);
    }

    /** Parses the three settings; a malformed one leaves no peers and a {@link #fault()}. */
    public static MessagePeers parse(String peerList, String pinList, long ttlSeconds) {
        try {
            return new MessagePeers(parsePeers(peerList == null ? "" : peerList, pinList == null ? "" : pinList),
                    checkedTtl(ttlSeconds), ttlSeconds);
        } catch (IllegalArgumentException e) {
            return new MessagePeers(new LinkedHashMap<>(), e.getMessage(), ttlSeconds);
        }
    }

    private static String checkedTtl(long ttlSeconds) {
        return ttlSeconds > 0 ? null : refusal(TTL_KEY, "must be a positive number of seconds");
    }

    private static Map<String, Peer> parsePeers(String peerList, String pinList) {
        Map<String, String> pins = new LinkedHashMap<>();
        for (String part : pinList.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String id = eq < 0 ? "" : part.substring(0, eq).strip();
            String pin = eq < 0 ? "" : part.substring(eq + 1).strip();
            if (!HubAddress.HUB_ID.matcher(id).matches() || !PIN.matcher(pin).matches()) {
                throw new IllegalArgumentException(refusal(PINS_KEY, "each entry must be HUB_ID=sha256:<64 hex>"));
            }
            if (pins.put(id, pin.substring("sha256:".length()).toLowerCase(Locale.ROOT)) != null) {
                throw new IllegalArgumentException(refusal(PINS_KEY, "peer '" + id + "' is pinned twice"));
            }
        }
        Map<String, Peer> peers = new LinkedHashMap<>();
        for (String part : peerList.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String id = eq < 0 ? "" : part.substring(0, eq).strip();
            if (!HubAddress.HUB_ID.matcher(id).matches()) {
                throw new IllegalArgumentException(refusal(PEERS_KEY, "each entry must be HUB_ID=ws[s]://host:port/"));
            }
            URI uri = uri(id, part.substring(eq + 1).strip());
            String pin = pins.get(id);
            if ("ws".equals(uri.getScheme()) && !loopback(uri.getHost())) {
                throw new IllegalArgumentException(refusal(PEERS_KEY, "peer '" + id
                        + "' uses plain ws:// to a host that is not loopback; use wss:// with a pin in " + PINS_KEY));
            }
            if ("wss".equals(uri.getScheme()) && pin == null) {
                throw new IllegalArgumentException(refusal(PINS_KEY, "wss:// peer '" + id + "' has no certificate pin"));
            }
            if (peers.put(id, new Peer(id, uri, "wss".equals(uri.getScheme()) ? pin : null)) != null) {
                throw new IllegalArgumentException(refusal(PEERS_KEY, "peer '" + id + "' is listed twice"));
            }
        }
        for (String pinned : pins.keySet()) {
            if (!peers.containsKey(pinned)) {
                throw new IllegalArgumentException(refusal(PINS_KEY, "pin for '" + pinned + "', which is not in " + PEERS_KEY));
            }
        }
        return peers;
    }

    private static URI uri(String id, String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("ws") && !scheme.equals("wss") || uri.getHost() == null || uri.getUserInfo() != null) {
                throw new URISyntaxException(text, "not a ws:// or wss:// address");
            }
            return uri;
        } catch (URISyntaxException e) {
            // the address itself is not echoed: it may carry credentials by mistake
            throw new IllegalArgumentException(refusal(PEERS_KEY, "peer '" + id + "' has no valid ws:// or wss:// address"));
        }
    }

    /** Numeric loopback or {@code localhost}: the only hosts plain {@code ws://} may reach. */
    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        String[] octets = h.split("\\.", -1);
        if (octets.length != 4 || !"127".equals(octets[0])) {
            return false;
        }
        for (String octet : octets) {
            if (!octet.matches("\\d{1,3}") || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    private static String refusal(String key, String what) {
        return "SYNAPSE refuses to serve: " + key + ": " + what;
    }

    /** The configured peers by hub id (empty after a fault). */
    public Map<String, Peer> peers() {
        return peers;
    }

    /** The start-up refusal line, or null when the settings are sound. */
    public String fault() {
        return fault;
    }

    /** How long a forward is retried before it expires (§4.6). */
    public long ttlSeconds() {
        return ttlSeconds;
    }
}
