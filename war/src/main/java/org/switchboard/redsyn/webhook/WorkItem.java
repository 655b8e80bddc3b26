package org.switchboard.redsyn.webhook;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import org.switchboard.json.Jsons;

/**
 * A webhook work item as it travels through the work queue: either "scan this agent's waiting
 * messages" or "make attempt {@code attempt} of delivering message {@code seq}". Everything needed to
 * go on after a restart is in the item and the delivery row.
 */
public record WorkItem(Op op, long id, int attempt) {

    /** What the item asks for. */
    public enum Op {
        /** Open deliveries for the messages waiting for agent {@code id}. */
        SCAN,
        /** Attempt a delivery of message row {@code id}. */
        DELIVER
    }

    /** A scan of an agent's waiting messages. */
    public static WorkItem scan(long agentId) {
        return new WorkItem(Op.SCAN, agentId, 0);
    }

    /** Attempt number {@code attempt} (from 1) of message row {@code seq}. */
    public static WorkItem deliver(long seq, int attempt) {
        return new WorkItem(Op.DELIVER, seq, attempt);
    }

    /** The queue body. */
    public String toJson() {
        return Jsons.PROVIDER.createObjectBuilder().add("op", op.name().toLowerCase(java.util.Locale.ROOT))
                .add("id", id).add("attempt", attempt).build().toString();
    }

    /** Reads a queue body; an unreadable one is an {@link IllegalArgumentException}. */
    public static WorkItem parse(String body) {
        if (body == null) {
            throw new IllegalArgumentException("empty webhook work item");
        }
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(body))) {
            JsonObject o = reader.readObject();
            if (!(o.get("op") instanceof JsonString op)) {
                throw new IllegalArgumentException("webhook work item without op");
            }
            Op kind = Op.valueOf(op.getString().toUpperCase(java.util.Locale.ROOT));
            int attempt = o.getInt("attempt", 0);
            if (kind == Op.DELIVER && attempt < 1) {
                throw new IllegalArgumentException("delivery attempt must be at least 1");
            }
            return new WorkItem(kind, o.getJsonNumber("id").longValueExact(), attempt);
        } catch (jakarta.json.JsonException | ClassCastException | NullPointerException | ArithmeticException e) {
            throw new IllegalArgumentException("unreadable webhook work item: " + e.getMessage(), e);
        }
    }
}
