package org.switchboard.synapse.chat;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.switchboard.synapse.InboundFrame;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.VerbHandler;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.wire.HubStrings;
import org.switchboard.synapse.wire.JsonFields;
import org.switchboard.synapse.receipts.ReceiptService;

/**
 * Private channels (§7.5): in-memory membership with single-use invites, member-only delivery,
 * a bounded per-channel history, and the channel verbs. Channel chats are journalled with their
 * {@code channel} field but never enter public history, broadcasts or mailbox replay.
 */
public final class ChannelService implements VerbHandler {

    private final SynapseContext ctx;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    /** Bytes of every channel's history together: all channels share one {@code hub.history-max-bytes}. */
    private final AtomicLong historyBytes = new AtomicLong();
    private volatile ChatService chat;

    private static final class Channel {
        final String id;
        final String owner;
        final String label;
        final Set<String> members = new LinkedHashSet<>();
        final Set<String> invites = new LinkedHashSet<>();
        final ChatHistory history;

        Channel(String id, String owner, String label, int historyLimit, long historyMaxBytes, AtomicLong historyBytes) {
            this.id = id;
            this.owner = owner;
            this.label = label;
            this.history = new ChatHistory(historyLimit, historyMaxBytes, historyBytes);
            members.add(owner);
        }
    }

    /** Channels for the given hub. */
    public ChannelService(SynapseContext ctx) {
        this.ctx = ctx;
    }

    void chatService(ChatService service) {
        this.chat = service;
    }

    @Override
    public Set<String> types() {
        return Set.of("channel_create", "channel_invite", "channel_join", "channel_leave", "channel_list_request",
                "channel_history_request");
    }

    @Override
    public boolean mutating(String type) {
        return !type.endsWith("_request");
    }

    @Override
    public void handle(InboundFrame in, SynapseContext context) {
        String sender = in.sender();
        String id = JsonFields.string(in.frame(), "channel");
        Connection socket = in.connection();
        switch (in.type()) {
            case "channel_list_request" -> {
                JsonArrayBuilder list = Jsons.PROVIDER.createArrayBuilder();
                new TreeSet<>(channels.keySet()).forEach(key -> {
                    Channel c = channels.get(key);
                    if (c != null) {
                        synchronized (c) {
                            if (c.members.contains(sender)) {
                                list.add(Jsons.PROVIDER.createObjectBuilder().add("channel", c.id).add("label", c.label)
                                        .add("owner", c.owner).add("members", JsonFields.sortedArray(c.members)));
                            }
                        }
                    }
                });
                socket.send(ctx.frames().hub("channel_list", sender, "Channel list").add("channels", list).build().toString());
            }
            case "channel_create" -> {
                if (id == null || id.isBlank()) {
                    result(socket, sender, "", false, null, "channel id required");
                    return;
                }
                String label = JsonFields.string(in.frame(), "label");
                Channel created = new Channel(id, sender, label == null ? id : label, ctx.settings().historyLimit(),
                        ctx.settings().historyMaxBytes(), historyBytes);
                Channel existing = channels.putIfAbsent(id, created);
                if (existing != null) {
                    result(socket, sender, id, false, null, "channel '" + id + "' already exists");
                } else {
                    result(socket, sender, id, true, created, "channel '" + id + "' created");
                }
            }
            case "channel_invite" -> {
                Channel c = id == null ? null : channels.get(id);
                String invitee = JsonFields.string(in.frame(), "invitee");
                if (c == null || invitee == null || invitee.isBlank()) {
                    result(socket, sender, id, false, null, "channel or invitee unknown");
                    return;
                }
                synchronized (c) {
                    if (!c.owner.equals(sender)) {
                        result(socket, sender, id, false, c, "only the owner may invite to channel '" + id + "'");
                        return;
                    }
                    c.invites.add(invitee);
                }
                result(socket, sender, id, true, c, invitee + " invited to channel '" + id + "'");
            }
            case "channel_join" -> {
                Channel c = id == null ? null : channels.get(id);
                if (c == null) {
                    result(socket, sender, id, false, null, "channel '" + id + "' does not exist");
                    return;
                }
                boolean joined;
                synchronized (c) {
                    joined = c.members.contains(sender) || c.invites.remove(sender);
                    if (joined) {
                        c.members.add(sender);
                    }
                }
                result(socket, sender, id, joined, c, joined ? "joined channel '" + id + "'" : "no invite for channel '" + id + "'");
            }
            case "channel_leave" -> {
                Channel c = id == null ? null : channels.get(id);
                boolean left = false;
                if (c != null) {
                    synchronized (c) {
                        left = c.members.remove(sender);
                    }
                }
                result(socket, sender, id, left, c, left ? "left channel '" + id + "'" : "not a member of channel '" + id + "'");
            }
            case "channel_history_request" -> {
                Channel c = id == null ? null : channels.get(id);
                if (c == null || !isMember(c, sender)) {
                    result(socket, sender, id, false, null, HubStrings.notChannelMember(id));
                    return;
                }
                Long limit = JsonFields.integer(in.frame(), "limit");
                long n = limit == null ? 20 : Math.max(0, limit);
                Long before = JsonFields.integer(in.frame(), "before_msg_id");
                JsonObject envelope = ctx.frames().hub("channel_history", sender, "Channel history").add("channel", id)
                        .add("retention", Jsons.PROVIDER.createObjectBuilder().add("max_messages", ctx.settings().historyLimit()))
                        .build();
                HistoryPages.Page page = HistoryPages.newest(c.history.newestFirst(), e -> true, n,
                        before == null ? HistoryPages.NEWEST : before,
                        ReplyBudget.forEnvelope(ctx.settings().replyBudget(), envelope, "messages"));
                socket.send(ReplyBudget.spliceEntries(envelope, page.markers("next_before_msg_id"), "messages",
                        page.entries()));
            }
            default -> {
            }
        }
    }

    private boolean isMember(Channel c, String name) {
        synchronized (c) {
            return c.members.contains(name);
        }
    }

    private void result(Connection socket, String sender, String id, boolean ok, Channel c, String payload) {
        JsonArrayBuilder members = Jsons.PROVIDER.createArrayBuilder();
        if (ok && c != null) {
            synchronized (c) {
                if (c.members.contains(sender)) {
                    members = Jsons.PROVIDER.createArrayBuilder(List.copyOf(new TreeSet<>(c.members)));
                }
            }
        }
        socket.send(ctx.frames().hub("channel_result", sender, payload).add("channel", id == null ? "" : id)
                .add("ok", ok).add("members", members).build().toString());
    }

    /** Routes a stamped channel chat: members only, journal then deliver, channel history, receipt. */
    void route(ChatService.Outgoing out, String id) {
        Channel c = channels.get(id);
        if (c == null || !isMember(c, out.sender())) {
            out.connection().send(ctx.frames().error(out.sender(), HubStrings.notChannelMember(id))
                    .add("channel", id).build().toString());
            return;
        }
        CompletableFuture<Long> committed = chat.append(out, false);
        out.connection().inOrder(committed, seq -> {
            String text = seq == null ? out.chatJson() : ChatService.withSeq(out.chatJson(), seq);
            c.history.add(text, null, out.msgId());
            List<String> members;
            synchronized (c) {
                members = new ArrayList<>(new TreeSet<>(c.members));
            }
            members.remove(out.sender());
            Map<String, CompletableFuture<Boolean>> writes = new java.util.LinkedHashMap<>();
            for (String member : members) {
                Connection socket = ctx.registry().socketOf(member);
                if (socket != null) {
                    writes.put(member, socket.send(text));
                }
            }
            CompletableFuture.allOf(writes.values().toArray(CompletableFuture[]::new)).whenComplete((x, e) -> {
                List<String> delivered = new ArrayList<>();
                writes.forEach((member, write) -> {
                    if (Boolean.TRUE.equals(write.getNow(false))) {
                        delivered.add(member);
                    }
                });
                if (!delivered.isEmpty()) {
                    chat.rememberDelivered(out, seq, id);
                }
                if (out.receiptRequested()) {
                    String reason = delivered.isEmpty()
                            ? (writes.isEmpty() ? ReceiptService.REASON_NO_ONLINE : ReceiptService.REASON_TRANSPORT) : "";
                    ReceiptService.Verdict verdict = new ReceiptService.Verdict(!delivered.isEmpty(), delivered,
                            List.copyOf(writes.keySet()), List.of(), reason, false, Map.of());
                    chat.receipts().immediate(new ReceiptService.Subject(out.sender(), id, out.msgId(), seq,
                            out.clientMsgId(), false), verdict);
                }
            });
        });
    }
}
