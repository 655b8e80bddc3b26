package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.List;
import org.switchboard.synapse.chat.ChatHistory;

/**
 * The byte budget of one reply frame that carries an array of already-encoded entries: the envelope
 * (every other member, plus room reserved for the truncation marker) is charged first, then each
 * entry with the comma that separates it from the one before.
 */
public final class ReplyBudget {

    /** Room kept for {@code "truncated":true} and a cursor member (name and a 19-digit value). */
    static final int MARKER_RESERVE = 96;

    private final long capacity;
    private long used;
    private int count;

    /** A budget of {@code maxBytes} for a frame whose members other than the array take {@code envelopeBytes}. */
    public ReplyBudget(long maxBytes, long envelopeBytes) {
        this.capacity = maxBytes - envelopeBytes - MARKER_RESERVE;
    }

    /** The budget for {@code envelope} (the reply without its array) with the array member {@code arrayName} added. */
    public static ReplyBudget forEnvelope(long maxBytes, JsonObject envelope, String arrayName) {
        // ,"name":[] — the array's own punctuation
        return new ReplyBudget(maxBytes, ChatHistory.utf8Length(envelope.toString()) + arrayName.length() + 6);
    }

    /** Whether an entry of {@code bytes} still fits; if so it is charged. */
    public boolean tryAdd(long bytes) {
        long cost = bytes + (count > 0 ? 1 : 0);
        if (cost > capacity - used) {
            return false;
        }
        used += cost;
        count++;
        return true;
    }

    /** Whether an entry of {@code bytes} could fit in an empty array (false: it can never be returned). */
    public boolean fitsAlone(long bytes) {
        return bytes <= capacity;
    }

    /** Bytes charged so far for entries. */
    public long used() {
        return used;
    }

    /**
     * The reply text: {@code envelope} with {@code markers} (already encoded members, e.g.
     * {@code "truncated":true}, may be empty) and the array {@code arrayName} of the encoded {@code entries}.
     */
    public static String splice(JsonObject envelope, String markers, String arrayName, List<String> entries) {
        List<ChatHistory.Entry> none = List.of();
        return splice(envelope, markers, arrayName, none, entries);
    }

    /** As {@link #splice(JsonObject, String, String, List)}, for retained chats: each text is copied once, into the reply. */
    public static String spliceEntries(JsonObject envelope, String markers, String arrayName, List<ChatHistory.Entry> entries) {
        return splice(envelope, markers, arrayName, entries, List.of());
    }

    private static String splice(JsonObject envelope, String markers, String arrayName, List<ChatHistory.Entry> chats,
                                 List<String> entries) {
        String head = envelope.toString();
        long length = head.length() + markers.length() + arrayName.length() + 8L;
        for (String entry : entries) {
            length += entry.length() + 1;
        }
        for (ChatHistory.Entry chat : chats) {
            length += chat.json().length() + 25;
        }
        StringBuilder out = new StringBuilder((int) Math.min(Integer.MAX_VALUE - 8, length));
        out.append(head, 0, head.length() - 1);
        String separator = head.length() > 2 ? "," : "";
        if (!markers.isEmpty()) {
            out.append(separator).append(markers);
            separator = ",";
        }
        out.append(separator).append('"').append(arrayName).append("\":[");
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(entries.get(i));
        }
        for (int i = 0; i < chats.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            chats.get(i).appendRelayed(out);
        }
        return out.append("]}").toString();
    }
}
