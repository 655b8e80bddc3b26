package org.switchboard.synapse.spend;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.federation.policy.PeerAuthority;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * {@code spend_request} → {@code spend_result} (synapse-advanced §7.4): a malformed request gets the
 * private error "Malformed spend request"; a request from anything but a proven peer holding a live
 * {@code spend} grant, on a hub without a ledger, or refused by the ledger gets the uniform not-admitted
 * answer of its action, so nothing reveals whether a pool, ledger or grant exists.
 */
public final class SpendService {

    /** The private error text for a malformed request [SEED]. */
    public static final String MALFORMED = "Malformed spend request";
    /** The serving-policy verb a caller needs. */
    public static final String VERB = "spend";
    /** Lowest negotiated version for a peer verb (the forwarding floor, §1.1). */
    public static final int MIN_VERSION = 5;

    private static final Set<String> ACTIONS = Set.of("reserve", "settle", "query");

    private final SynapseContext ctx;
    private final PeerAuthority peers;
    private final SpendLedger ledger;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** The verb over {@code ledger} (null: no ledger, everything not admitted). */
    public SpendService(SynapseContext ctx, PeerAuthority peers, SpendLedger ledger) {
        this.ctx = ctx;
        this.peers = peers;
        this.ledger = ledger;
    }

    /** The ledger at {@code configured}, or null when none is configured or it does not load (start-up refuses then). */
    public static SpendLedger ledgerAt(String configured, SpendLedger.Limits limits) {
        if (configured == null || configured.isBlank()) {
            return null;
        }
        try {
            return SpendLedger.load(Path.of(configured.trim()), limits);
        } catch (PolicyFileException e) {
            return null;
        }
    }

    /** Requests by {@code "<action> <result>"} for /metrics. */
    public Map<String, LongAdder> counts() {
        return counts;
    }

    /** The uniform not-admitted answer of {@code action} (§7.4 table). */
    static JsonObject notAdmitted(String action) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder();
        return switch (action) {
            case "reserve" -> b.add("admitted", false).add("reason", "not-admitted").build();
            case "settle" -> b.add("settled", false).add("reason", "not-admitted").build();
            default -> b.add("found", false).build();
        };
    }

    /** One {@code spend_request} on {@code connection}. */
    public void handle(Connection connection, JsonObject frame) {
        String action = frame.get("spend_action") instanceof JsonString a && ACTIONS.contains(a.getString()) ? a.getString() : null;
        if (action == null || !(frame.get("spend") instanceof JsonObject spend)) {
            count("malformed", "error");
            connection.send(ctx.frames().errorText(connection.name(), MALFORMED));
            return;
        }
        double now = ctx.frames().now();
        String caller = peers.peerId(connection, MIN_VERSION, now);
        SpendLedger.Answer answer = null;
        if (caller != null && ledger != null && peers.policy().authorisesVerb(caller, VERB, now)) {
            answer = switch (action) {
                case "reserve" -> ledger.reserve(caller, spend, now);
                case "settle" -> ledger.settle(caller, spend, now);
                default -> ledger.query(caller, spend, now);
            };
        }
        JsonObject result = answer == null || answer.notAdmitted() ? notAdmitted(action) : answer.result();
        count(action, answer == null || answer.notAdmitted() ? "not_admitted" : resultName(result));
        connection.send(ctx.frames().hub("spend_result", connection.name(), "")
                .add("spend_action", action).add("spend_result", result).build().toString());
    }

    private static String resultName(JsonObject result) {
        if (result.containsKey("reason")) {
            return result.getString("reason", "refused").replace('-', '_');
        }
        return result.containsKey("found") ? "found" : result.containsKey("settled") ? "settled" : "admitted";
    }

    private void count(String action, String result) {
        counts.computeIfAbsent(action + " " + result, k -> new LongAdder()).increment();
    }
}
