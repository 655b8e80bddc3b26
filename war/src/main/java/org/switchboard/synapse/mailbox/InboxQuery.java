package org.switchboard.synapse.mailbox;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.switchboard.journal.Journal;
import org.switchboard.journal.JournalEvent;
import org.switchboard.synapse.addressing.Addressing;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.wire.JsonFields;

/** The bounded inbox query v1 (§8.6): one page of an identity's addressed chats from the journal. */
public final class InboxQuery {

    /** Chat rows inspected per request. */
    public static final int SCAN_LIMIT = 1000;
    /** Rows read from the journal at a time (the scan goes on page by page up to {@link #SCAN_LIMIT}). */
    static final int READ_PAGE = 32;
    /** Encoded bytes returned per page. */
    public static final long BYTE_BUDGET = 7L * 1024 * 1024;

    private InboxQuery() {
    }

    /** Builds the {@code inbox_page} object for {@code query} asked by {@code requester}. */
    public static JsonObject page(JsonObject query, String requester, Collection<String> roles, String hubId,
                                  Journal journal, long highestSeq) {
        return page(query, requester, roles, hubId, journal, highestSeq, BYTE_BUDGET);
    }

    /**
     * As above, returning at most {@code byteBudget} bytes of messages (the spec's 7 MiB, or less when the
     * hub's reply budget is smaller, so the whole {@code history_snapshot} stays within it).
     */
    public static JsonObject page(JsonObject query, String requester, Collection<String> roles, String hubId,
                                  Journal journal, long highestSeq, long byteBudget) {
        long budget = Math.min(BYTE_BUDGET, byteBudget);
        Long version = JsonFields.integer(query, "version");
        String identity = JsonFields.string(query, "identity");
        String cursorHub = JsonFields.string(query, "hub_id");
        Long since = JsonFields.integer(query, "since_seq");
        Long limit = JsonFields.integer(query, "limit");
        if (version == null || version != 1 || identity == null || identity.isEmpty() || cursorHub == null
                || since == null || since < 0 || limit == null || limit < 1 || limit > 100) {
            return refusal(identity, hubId, "invalid_query");
        }
        boolean own = identity.equals(requester)
                || (!ConnectionRegistry.waiterOwner(requester).equals(requester)
                && ConnectionRegistry.waiterOwner(requester).equals(identity));
        if (!own) {
            return refusal(identity, hubId, "foreign_identity");
        }
        if (!cursorHub.isEmpty() && !cursorHub.equals(hubId)) {
            return refusal(identity, hubId, "hub_changed");
        }
        if (journal == null) {
            return refusal(identity, hubId, "journal_unavailable");
        }
        if (since > highestSeq) {
            return refusal(identity, hubId, "cursor_out_of_range");
        }
        JsonArrayBuilder messages = Jsons.PROVIDER.createArrayBuilder();
        long cursor = since;
        long bytes = 0;
        int returned = 0;
        int scanned = 0;
        boolean hasMore = false;
        // read a page of rows at a time: 1000 rows of 1 MiB chats must never be in memory at once
        scan:
        while (scanned < SCAN_LIMIT) {
            int want = Math.min(READ_PAGE, SCAN_LIMIT - scanned);
            List<JournalEvent> rows = journal.read(cursor, want, Set.of("chat"));
            for (JournalEvent row : rows) {
                scanned++;
                JsonObject chat = row.payload();
                String target = JsonFields.string(chat, "target");
                boolean matches = target != null && !Addressing.isBroadcast(target)
                        && !identity.equals(JsonFields.string(chat, "sender")) && !chat.containsKey("channel")
                        && Addressing.isRecipient(target, identity, roles);
                if (!matches) {
                    cursor = row.seq();
                    continue;
                }
                if (returned >= limit) {
                    hasMore = true;
                    break scan;
                }
                JsonObject message = Jsons.PROVIDER.createObjectBuilder(chat).add("seq", row.seq()).build();
                long size = message.toString().getBytes(StandardCharsets.UTF_8).length;
                if (bytes + size > budget) {
                    if (returned == 0) {
                        return refusal(identity, hubId, "message_too_large");
                    }
                    hasMore = true;
                    break scan;
                }
                messages.add(message);
                bytes += size;
                returned++;
                cursor = row.seq();
            }
            if (rows.size() < want) {
                break; // the journal has no more
            }
            hasMore = scanned >= SCAN_LIMIT;
        }
        return Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("available", true).add("identity", identity)
                .add("hub_id", hubId).add("cursor", cursor).add("messages", messages).add("has_more", hasMore)
                .build();
    }

    private static JsonObject refusal(String identity, String hubId, String reason) {
        JsonObjectBuilder page = Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("available", false)
                .add("identity", identity == null ? "" : identity).add("hub_id", hubId).add("reason", reason);
        return page.build();
    }
}
