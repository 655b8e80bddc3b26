package org.switchboard.synapse.chat;

import org.switchboard.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.switchboard.synapse.wire.SynapseCanonicalJson;

/**
 * {@code client_msg_id} duplicate suppression (§7.7): remembers {@code (sender, client_msg_id)}
 * with the content digest of the first delivered copy for 24 h, at most 4096 pairs (oldest evicted).
 */
public final class DuplicateSuppressor {

    /** Memory window (seconds). */
    public static final double WINDOW = 24 * 3600;
    /** Memory bound. */
    public static final int CAPACITY = 4096;
    /** Longest accepted client_msg_id in UTF-8 bytes. */
    public static final int MAX_ID_BYTES = 256;

    private static final List<String> NOT_CONTENT = List.of("timestamp", "client_timestamp", "token", "auth",
            "signature", "idem_key", "receipt_requested", "msg_id", "seq", "hub_id");

    /** What the first copy got. */
    public record Remembered(String digest, long msgId, Long seq, String channel, double at) {
    }

    /** Outcome of a lookup: {@code remembered} is null for a new pair. */
    public record Verdict(boolean duplicate, boolean conflict, Remembered remembered) {
        static final Verdict NEW = new Verdict(false, false, null);
    }

    private final ConcurrentHashMap<String, Remembered> memory = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    /** Pairs whose first copy is still being written: a resend waits for that copy's outcome. */
    private final ConcurrentHashMap<String, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

    /** Trimmed id when valid (≤ 256 UTF-8 bytes, no C0 controls or DEL, non-empty), else null. */
    public static String normaliseId(String raw) {
        if (raw == null) {
            return null;
        }
        String id = raw.trim();
        if (id.isEmpty() || id.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
            return null;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return null;
            }
        }
        return id;
    }

    /** SHA-256 of the canonical chat frame without the non-content fields. */
    public static String contentDigest(JsonObject frame) {
        JsonObjectBuilder content = Jsons.PROVIDER.createObjectBuilder(frame);
        for (String key : NOT_CONTENT) {
            content.remove(key);
        }
        return SynapseCanonicalJson.sha256Hex(content.build());
    }

    /** Looks up a pair; expired entries count as new. */
    public Verdict check(String sender, String clientMsgId, String digest, double now) {
        Remembered remembered = memory.get(key(sender, clientMsgId));
        if (remembered == null || now - remembered.at() > WINDOW) {
            return Verdict.NEW;
        }
        return remembered.digest().equals(digest) ? new Verdict(true, false, remembered)
                : new Verdict(false, true, remembered);
    }

    /** Remembers a pair once its chat reached a live recipient. */
    public void remember(String sender, String clientMsgId, Remembered remembered) {
        String key = key(sender, clientMsgId);
        if (memory.put(key, remembered) == null) {
            order.add(key);
            if (size.incrementAndGet() > CAPACITY) {
                String oldest = order.poll();
                if (oldest != null) {
                    memory.remove(oldest);
                    size.decrementAndGet();
                }
            }
        }
    }

    /**
     * Completes when the pair's earlier copy has its outcome (remembered or not); null when none is being
     * written. A back-to-back resend must not overtake the first copy's memory (§7.7).
     */
    public CompletableFuture<Void> inFlight(String sender, String clientMsgId) {
        return inFlight.get(key(sender, clientMsgId));
    }

    /** The pair's copy is accepted and on its way out. */
    public void sending(String sender, String clientMsgId) {
        inFlight.putIfAbsent(key(sender, clientMsgId), new CompletableFuture<>());
    }

    /** The pair's copy reached its outcome; a resend waiting on it proceeds. */
    public void settled(String sender, String clientMsgId) {
        CompletableFuture<Void> waiting = inFlight.remove(key(sender, clientMsgId));
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    public int size() {
        return memory.size();
    }

    private static String key(String sender, String clientMsgId) {
        return sender + '\u0000' + clientMsgId;
    }
}
