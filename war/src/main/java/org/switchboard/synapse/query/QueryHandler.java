package org.switchboard.synapse.query;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.StateSnapshotContributor;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseSettings;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.chat.ChatHistory;
import org.switchboard.synapse.chat.ChatService;
import org.switchboard.synapse.chat.DeadLetterLedger;
import org.switchboard.synapse.mailbox.InboxQuery;
import org.switchboard.synapse.mailbox.MailboxService;
import org.switchboard.synapse.AgentActivity;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.synapse.chat.HistoryPages;
import org.switchboard.synapse.chat.PrivateDirectedVisibility;
import org.switchboard.synapse.chat.ReplyBudget;

/** The read-only queries of §13: {@code who_request}, {@code history_request}, {@code state_request}, {@code resume_request}. */
public final class QueryHandler implements VerbHandler {

    /** Room kept in the reply budget for the history_snapshot around an inbox page (envelope, page members). */
    private static final long INBOX_ENVELOPE_RESERVE = 8 * 1024;

    private final ChatService chat;
    private final MailboxService mailbox;
    private final Supplier<List<StateSnapshotContributor>> contributors;
    private final Supplier<JsonObject> deliverySessions;
    private volatile RemoteRoster remoteRoster;

    /** Queries over chat history, mailbox and the state contributors (claims etc.). */
    public QueryHandler(ChatService chat, MailboxService mailbox, Supplier<List<StateSnapshotContributor>> contributors) {
        this(chat, mailbox, contributors, null);
    }

    /** As above, with the live delivery sessions that v3+ requesters see in {@code who_snapshot} (synapse-advanced §2.4). */
    public QueryHandler(ChatService chat, MailboxService mailbox, Supplier<List<StateSnapshotContributor>> contributors,
                        Supplier<JsonObject> deliverySessions) {
        this.chat = chat;
        this.mailbox = mailbox;
        this.contributors = contributors;
        this.deliverySessions = deliverySessions;
    }

    @Override
    public Set<String> types() {
        return Set.of("who_request", "history_request", "state_request", "resume_request");
    }

    @Override
    public void handle(InboundFrame in, SynapseContext ctx) {
        switch (in.type()) {
            case "who_request" -> {
                String hub = org.switchboard.synapse.wire.JsonFields.string(in.frame(), "hub");
                if (hub != null && !hub.equals(ctx.frames().hubId())) {
                    remoteWho(in, ctx, hub);
                    return;
                }
                in.connection().send(SnapshotTrim.fit(withDeliverySessions(who(in.sender(), ctx),
                    in.connection().protocolVersion()), ctx.settings().replyBudget()).toString());
            }
            case "history_request" -> history(in, ctx);
            case "state_request" -> in.connection().send(state(in, ctx).toString());
            case "resume_request" -> in.connection().send(resume(in, ctx));
            default -> {
            }
        }
    }

    /** Installs the remote roster of synapse-advanced §4.8. */
    public void remoteRoster(RemoteRoster roster) {
        this.remoteRoster = roster;
    }

    /** {@code who_request} naming another hub: its roster, asked off the socket's thread (the peer may take 10 s). */
    private void remoteWho(InboundFrame in, SynapseContext ctx, String hub) {
        RemoteRoster roster = remoteRoster;
        if (roster == null) {
            String shown = hub.matches("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$") ? hub : "?";
            in.connection().send(ctx.frames().error(in.sender(), "Roster of hub '" + shown
                    + "' unavailable (unknown_hub): not a configured message peer").add("error_code", "unknown_hub")
                    .build().toString());
            return;
        }
        ctx.blocking().execute(() -> roster.roster(in.connection(), in.sender(), hub));
    }

    /** Adds {@code delivery_sessions} for a requester at v3 or above; older requesters never see the key. */
    private JsonObject withDeliverySessions(JsonObject who, int requesterVersion) {
        if (deliverySessions == null || requesterVersion < 3) {
            return who;
        }
        return Jsons.PROVIDER.createObjectBuilder(who).add("delivery_sessions", deliverySessions.get()).build();
    }

    JsonObject who(String requester, SynapseContext ctx) {
        ConnectionRegistry registry = ctx.registry();
        double now = ctx.frames().now();
        JsonObjectBuilder roles = Jsons.PROVIDER.createObjectBuilder();
        registry.agentRoles().forEach((name, list) -> roles.add(name, JsonFields.array(list)));
        List<String> roster = registry.roster();
        JsonObjectBuilder who = ctx.frames().hub("who_snapshot", requester, HubStrings.WHO_SNAPSHOT)
                .add("online_agents", JsonFields.array(roster))
                .add("agent_roles", roles)
                .add("connected_clients", registry.connectedClients())
                .add("hub_version", ctx.settings().version())
                .add("protocol_version", SynapseSettings.PROTOCOL_VERSION)
                .add("config_epoch", ctx.settings().configEpoch());
        JsonObject pending = mailbox.pendingSnapshot();
        who.add("mailbox_pending", pending == null ? JsonValue.NULL : pending);
        if (registry.staleTracking()) {
            JsonObjectBuilder liveness = Jsons.PROVIDER.createObjectBuilder();
            for (String name : roster) {
                if (!ConnectionRegistry.waiterOwner(name).equals(name)) {
                    continue;
                }
                AgentActivity activity = registry.activity().get(name);
                JsonObjectBuilder entry = Jsons.PROVIDER.createObjectBuilder()
                        .add("proven_live", !registry.isStale(name, now))
                        .add("has_live_waiter", registry.hasLiveWaiter(name, now));
                Double age = activity == null ? null : activity.reactionAge(now);
                if (age == null) {
                    entry.addNull("last_reaction_age");
                } else {
                    entry.add("last_reaction_age", age);
                }
                liveness.add(name, entry);
            }
            who.add("agent_liveness", liveness);
        }
        Map<String, String> wake = new TreeMap<>();
        for (Connection c : registry.boundConnections()) {
            if (c.wakeCapability() != null && c.name() != null) {
                wake.put(c.name(), c.wakeCapability());
            }
        }
        if (!wake.isEmpty()) {
            JsonObjectBuilder capabilities = Jsons.PROVIDER.createObjectBuilder();
            wake.forEach(capabilities::add);
            who.add("wake_capabilities", capabilities);
        }
        return who.build();
    }

    private void history(InboundFrame in, SynapseContext ctx) {
        JsonObject frame = in.frame();
        JsonValue inboxQuery = frame.get("inbox_query");
        if (inboxQuery != null && inboxQuery != JsonValue.NULL) {
            String requestId = requestId(frame);
            List<String> roles = in.connection().roles();
            CompletableFuture.supplyAsync(() -> inboxQuery instanceof JsonObject q && requestId != null
                            ? InboxQuery.page(q, in.sender(), roles, ctx.frames().hubId(), ctx.journal(), mailbox.highestSeq(),
                                    ctx.settings().replyBudget() - INBOX_ENVELOPE_RESERVE)
                            : Jsons.PROVIDER.createObjectBuilder().add("version", 1).add("available", false)
                                    .add("identity", "").add("hub_id", ctx.frames().hubId())
                                    .add("reason", "invalid_query").build(), ctx.blocking())
                    .thenAccept(page -> {
                        JsonObjectBuilder reply = ctx.frames().hub("history_snapshot", in.sender(), HubStrings.HISTORY_SNAPSHOT)
                                .add("history", Jsons.PROVIDER.createArrayBuilder()).add("inbox_page", page);
                        if (requestId != null) {
                            reply.add("request_id", requestId);
                        }
                        in.connection().send(reply.build().toString());
                    });
            return;
        }
        Predicate<JsonObject> filter = visibleTo(in, ctx);
        // a selector's member text, when it can be known: entries without it are not parsed
        String mustContain = null;
        if (frame.containsKey("history_client_msg_id")) {
            String wanted = nonEmptyString(frame.get("history_client_msg_id"));
            filter = and(filter, f -> wanted != null && wanted.equals(JsonFields.string(f, "client_msg_id")));
            mustContain = wanted == null ? null : ChatHistory.memberText("client_msg_id", wanted);
        }
        if (frame.containsKey("history_target")) {
            String wanted = nonEmptyString(frame.get("history_target"));
            filter = and(filter, f -> wanted != null && wanted.equals(JsonFields.string(f, "target")));
            String targetText = wanted == null ? null : ChatHistory.memberText("target", wanted);
            mustContain = targetText != null ? targetText : mustContain;
        }
        JsonValue limitValue = frame.get("limit");
        JsonObjectBuilder reply = ctx.frames().hub("history_snapshot", in.sender(), HubStrings.HISTORY_SNAPSHOT);
        long max;
        if (limitValue instanceof JsonNumber number) {
            long limit = Math.max(1, number.longValue());
            max = limit;
            reply.add("requested_limit", limit);
        } else {
            max = Long.MAX_VALUE;
            reply.add("requested_limit", "all");
        }
        Long before = JsonFields.integer(frame, "before_msg_id");
        JsonObject envelope = reply.build();
        HistoryPages.Page page = HistoryPages.newest(chat.history().newestFirst(), entryFilter(mustContain, filter), max,
                before == null ? HistoryPages.NEWEST : before,
                ReplyBudget.forEnvelope(ctx.settings().replyBudget(), envelope, "history"));
        in.connection().send(ReplyBudget.spliceEntries(envelope, page.markers("next_before_msg_id"), "history", page.entries()));
    }

    /** An entry filter: the cheap text test first, then (only when there is one) the parsed-frame filter. */
    private static Predicate<ChatHistory.Entry> entryFilter(String mustContain, Predicate<JsonObject> frameFilter) {
        return entry -> (mustContain == null || entry.json().contains(mustContain))
                && (frameFilter == null || frameFilter.test(entry.frame()));
    }

    private static Predicate<JsonObject> and(Predicate<JsonObject> first, Predicate<JsonObject> second) {
        return first == null ? second : first.and(second);
    }

    private JsonObject state(InboundFrame in, SynapseContext ctx) {
        double now = ctx.frames().now();
        String requestId = requestId(in.frame());
        JsonObjectBuilder reply = ctx.frames().hub("state_snapshot", in.sender(), HubStrings.STATE_SNAPSHOT);
        if (requestId != null) {
            reply.add("request_id", requestId);
        }
        JsonValue probe = in.frame().get("release_confirmation");
        if (probe instanceof JsonObject confirmation) {
            for (StateSnapshotContributor contributor : contributors.get()) {
                JsonObject answer = contributor.releaseConfirmation(confirmation, in.sender());
                if (answer != null) {
                    return reply.add("release_confirmation", answer).build();
                }
            }
            // Claims are another feature; until it answers, every probe is "unknown" (never a false confirm).
            JsonObjectBuilder unknown = Jsons.PROVIDER.createObjectBuilder().add("status", "unknown");
            for (String key : new String[] {"task_id", "operation_id", "request_digest"}) {
                String value = JsonFields.string(confirmation, key);
                if (value != null) {
                    unknown.add(key, value);
                }
            }
            return reply.add("release_confirmation", unknown).build();
        }
        JsonArrayBuilder agents = Jsons.PROVIDER.createArrayBuilder();
        new TreeMap<>(ctx.registry().activity()).forEach((name, activity) ->
                agents.add(Jsons.PROVIDER.createObjectBuilder().add("agent", name).add("last_seen", activity.lastSeen())));
        JsonArrayBuilder deadLetters = Jsons.PROVIDER.createArrayBuilder();
        for (DeadLetterLedger.Entry e : chat.deadLetters().snapshot(now)) {
            deadLetters.add(Jsons.PROVIDER.createObjectBuilder().add("target", e.target()).add("count", e.count())
                    .add("last_ts", e.lastTs()).add("last_sender", e.lastSender()));
        }
        JsonObjectBuilder snapshot = Jsons.PROVIDER.createObjectBuilder()
                .add("active_claims", Jsons.PROVIDER.createArrayBuilder())
                .add("agents", agents)
                .add("resources", Jsons.PROVIDER.createArrayBuilder())
                .add("generated_at", now)
                .add("dead_letters", deadLetters)
                .add("pending_relay_approvals", Jsons.PROVIDER.createArrayBuilder());
        for (StateSnapshotContributor contributor : contributors.get()) {
            contributor.contribute(in.sender(), snapshot);
        }
        return reply.add("snapshot", SnapshotTrim.fit(snapshot.build(), ctx.settings().replyBudget() - INBOX_ENVELOPE_RESERVE))
                .build();
    }

    private String resume(InboundFrame in, SynapseContext ctx) {
        Long since = JsonFields.integer(in.frame(), "since");
        long cursor = since == null ? 0 : since;
        JsonObject envelope = ctx.frames().hub("resume_snapshot", in.sender(), HubStrings.RESUME_SNAPSHOT)
                .add("since", cursor).build();
        HistoryPages.Page page = HistoryPages.after(chat.history().oldestFirst(), entryFilter(null, visibleTo(in, ctx)),
                cursor, ReplyBudget.forEnvelope(ctx.settings().replyBudget(), envelope, "messages"));
        return ReplyBudget.spliceEntries(envelope, page.markers("next_since"), "messages", page.entries());
    }

    /** Private-directed mode: only broadcasts plus chats the requester sent or is an inbox recipient of (§7.4); null: all. */
    private static Predicate<JsonObject> visibleTo(InboundFrame in, SynapseContext ctx) {
        return PrivateDirectedVisibility.filterFor(ctx.settings().privateDirectedMessages(), in.sender(), in.connection().roles());
    }

    private static String requestId(JsonObject frame) {
        String id = JsonFields.string(frame, "request_id");
        return id != null && !id.isEmpty() && id.length() <= 128 ? id : null;
    }

    private static String nonEmptyString(JsonValue value) {
        return value instanceof jakarta.json.JsonString s && !s.getString().isEmpty() ? s.getString() : null;
    }
}
