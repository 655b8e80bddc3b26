package org.switchboard.redsyn.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The shapes of REDSYN's JSON replies (and of the bodies read as raw JSON), for the OpenAPI document
 * only: the resources build their replies as JSON-P objects, and these classes describe them. Fields
 * mirror the seed protocol's names; a field a reply may leave out is not in {@code requiredProperties}.
 */
public final class ApiSchemas {

    private ApiSchemas() {
    }

    /** Every refusal: {@code {"error", "status"}}, plus {@code quota} on plan limits and {@code versions} on an unknown date. */
    @Schema(name = "Error", requiredProperties = {"error", "status"})
    public static class Error {
        public String error;
        public int status;
        public Boolean quota;
        public List<String> versions;
    }

    /** A person as the admin API shows it. */
    @Schema(name = "Person", requiredProperties = {"id", "email", "plan"})
    public static class Person {
        public long id;
        public String email;
        public String plan;
    }

    /** A new node and its token (shown this once). */
    @Schema(name = "NodeToken", requiredProperties = {"node", "token"})
    public static class NodeToken {
        public String node;
        public String token;
    }

    /** One of the caller's organisations in {@code GET /me}. */
    @Schema(name = "MyOrg", requiredProperties = {"handle", "me", "admin", "teams", "version", "plan"})
    public static class MyOrg {
        public String handle;
        public String me;
        public boolean admin;
        public List<String> teams;
        public String version;
        public String plan;
    }

    /** A pending invitation in {@code GET /me}. */
    @Schema(name = "MyInvite", requiredProperties = {"id", "org", "team"})
    public static class MyInvite {
        public long id;
        public String org;
        public String team;
    }

    /** {@code GET /me}. */
    @Schema(name = "Me", requiredProperties = {"person", "email", "node", "orgs", "teams", "invites", "versions", "version"})
    public static class Me {
        public Person person;
        public String email;
        public String node;
        public List<MyOrg> orgs;
        public List<String> teams;
        public List<MyInvite> invites;
        public List<String> versions;
        public String version;
    }

    /** A created organisation. */
    @Schema(name = "OrgCreated", requiredProperties = {"handle", "me", "admin", "teams", "version"})
    public static class OrgCreated {
        public String handle;
        public String me;
        public boolean admin;
        public List<String> teams;
        public String version;
    }

    /** A created team. */
    @Schema(name = "TeamCreated", requiredProperties = {"org", "handle"})
    public static class TeamCreated {
        public String org;
        public String handle;
    }

    /** A team member added (201) or already there (200). */
    @Schema(name = "TeamMemberAdded", requiredProperties = {"org", "team", "who", "added"})
    public static class TeamMemberAdded {
        public String org;
        public String team;
        public String who;
        public boolean added;
    }

    /** A created invitation. */
    @Schema(name = "Invite", requiredProperties = {"id", "org", "email", "team"})
    public static class Invite {
        public long id;
        public String org;
        public String email;
        public String team;
    }

    /** A joined organisation. */
    @Schema(name = "Joined", requiredProperties = {"org", "me", "teams"})
    public static class Joined {
        public String org;
        public String me;
        public List<String> teams;
    }

    /** A plan's limits ({@code -1}: unlimited). */
    @Schema(name = "PlanLimits", requiredProperties = {"messages_per_day", "files_pending_bytes", "max_ttl", "agents", "links", "webhooks"})
    public static class PlanLimits {
        public long messages_per_day;
        public long files_pending_bytes;
        public long max_ttl;
        public long agents;
        public long links;
        public long webhooks;
        public long body_bytes;
        public long zip_bytes;
    }

    /** {@code GET /orgs/{org}/usage}. */
    @Schema(name = "Usage", requiredProperties = {"org", "plan", "messages_today", "messages_reset", "files_pending_bytes", "agents",
            "links", "webhooks", "limits", "unlimited"})
    public static class Usage {
        public String org;
        public String plan;
        public long messages_today;
        public long messages_reset;
        public long files_pending_bytes;
        public long agents;
        public long links;
        public long webhooks;
        public PlanLimits limits;
        public long unlimited;
    }

    /** A session in an agent view (title, thread and created for the owner only). */
    @Schema(name = "SessionEntry", requiredProperties = {"id", "closed"})
    public static class SessionEntry {
        public String id;
        public boolean closed;
        public String title;
        public String thread;
        public Long created;
    }

    /** An agent as the directory and {@code GET /agents/…} show it. */
    @Schema(name = "Agent", requiredProperties = {"address", "description", "adapter", "listening", "online", "accepts", "trust",
            "signed_only", "encrypted_only", "last_seen", "node"})
    public static class Agent {
        public String address;
        public String description;
        public String adapter;
        public boolean listening;
        public boolean online;
        public List<String> accepts;
        @Schema(enumeration = {"none", "full"})
        public String trust;
        public boolean signed_only;
        public boolean encrypted_only;
        @Schema(nullable = true)
        public Long last_seen;
        @Schema(nullable = true)
        public String node;
        public List<SessionEntry> sessions;
    }

    /** {@code GET /directory}: one bounded page of agents. */
    @Schema(name = "Directory", requiredProperties = {"agents", "truncated"})
    public static class Directory {
        public List<Agent> agents;
        public boolean truncated;
        @Schema(description = "present when truncated: send it back as ?cursor= for the next page")
        public String next_cursor;
    }

    /** {@code GET /agents/…/key}. */
    @Schema(name = "AgentKey", requiredProperties = {"node", "signing_key", "enc_key", "enc_sig", "fingerprint"})
    public static class AgentKey {
        public String node;
        public String signing_key;
        public String enc_key;
        public String enc_sig;
        public String fingerprint;
    }

    /** {@code PUT /nodes/key} body. */
    @Schema(name = "NodeKeyRequest", requiredProperties = {"public_key"})
    public static class NodeKeyRequest {
        public String public_key;
        public String enc_key;
        public String enc_sig;
        public Boolean rotate;
    }

    /** {@code PUT /nodes/key} reply. */
    @Schema(name = "NodeKey", requiredProperties = {"node", "public_key", "fingerprint", "rotated", "enc_key", "enc_sig"})
    public static class NodeKey {
        public String node;
        public String public_key;
        public String fingerprint;
        public boolean rotated;
        @Schema(nullable = true)
        public String enc_key;
        @Schema(nullable = true)
        public String enc_sig;
    }

    /** Files of a delivered envelope (the zip is downloaded apart). */
    @Schema(name = "FilesRef", requiredProperties = {"bytes", "sha256"})
    public static class FilesRef {
        public long bytes;
        public String sha256;
    }

    /** An envelope as delivered (and as threads, sessions and peeks list it, with its {@code state}). */
    @Schema(name = "Envelope", requiredProperties = {"v", "id", "kind", "from", "to", "thread", "reply_to", "ts", "ttl", "body", "refs",
            "error", "expires", "attempts", "signed"})
    public static class Envelope {
        public int v;
        public String id;
        @Schema(enumeration = {"request", "progress", "reply", "event"})
        public String kind;
        public String from;
        public String to;
        public String thread;
        @Schema(nullable = true)
        public String reply_to;
        @Schema(nullable = true)
        public Long ts;
        public long ttl;
        @Schema(type = SchemaType.OBJECT)
        public Map<String, Object> body;
        @Schema(type = SchemaType.ARRAY)
        public List<Object> refs;
        public FilesRef files;
        public boolean error;
        public long expires;
        public int attempts;
        public boolean signed;
        public String topic;
        @Schema(type = SchemaType.OBJECT)
        public Map<String, Object> sig;
        @Schema(description = "in threads, sessions and peeks: queued, taken, done, expired, abandoned or cancelled")
        public String state;
    }

    /** {@code POST /messages} body: an envelope as sent (the seed protocol's fields). */
    @Schema(name = "SendEnvelope", requiredProperties = {"v", "kind", "from", "body"})
    public static class SendEnvelope {
        public int v;
        public String id;
        @Schema(enumeration = {"request", "progress", "reply", "event"})
        public String kind;
        public String from;
        public String to;
        public String thread;
        @Schema(nullable = true)
        public String reply_to;
        public Long ts;
        public Long ttl;
        @Schema(type = SchemaType.OBJECT)
        public Map<String, Object> body;
        @Schema(type = SchemaType.ARRAY)
        public List<Object> refs;
        @Schema(type = SchemaType.OBJECT, description = "{\"zip\": base64}")
        public Map<String, Object> files;
        public Boolean error;
        @Schema(type = SchemaType.OBJECT)
        public Map<String, Object> sig;
    }

    /** {@code POST /messages} reply: 201 accepted, 200 a duplicate id. */
    @Schema(name = "Sent", requiredProperties = {"id", "thread", "to", "signed"})
    public static class Sent {
        public String id;
        public String thread;
        public String to;
        public boolean signed;
        public Boolean duplicate;
        public String state;
        @Schema(description = "events: the topic and the number of copies")
        public String topic;
        public Integer copies;
    }

    /** {@code GET /inbox/…}: what was taken (or, with peek=1, what waits). */
    @Schema(name = "Items", requiredProperties = {"items"})
    public static class Items {
        public List<Envelope> items;
    }

    /** {@code POST /inbox/…/ack} reply. */
    @Schema(name = "Acked", requiredProperties = {"acked", "not_acked"})
    public static class Acked {
        public List<String> acked;
        public List<String> not_acked;
    }

    /** {@code GET /messages/{id}/files}. */
    @Schema(name = "Files", requiredProperties = {"zip", "bytes", "sha256"})
    public static class Files {
        public String zip;
        public long bytes;
        public String sha256;
    }

    /** {@code POST /messages/{id}/cancel}. */
    @Schema(name = "Cancelled", requiredProperties = {"id", "cancelled"})
    public static class Cancelled {
        public String id;
        public boolean cancelled;
    }

    /** {@code GET /threads/{id}}: one bounded page of the messages the caller may see. */
    @Schema(name = "Thread", requiredProperties = {"id", "messages", "hidden", "truncated"})
    public static class Thread {
        public String id;
        public List<Envelope> messages;
        @Schema(description = "messages of the whole thread the caller may not see")
        public long hidden;
        public boolean truncated;
        @Schema(description = "present when truncated: send it back as ?cursor= for the next page")
        public String next_cursor;
    }

    /** {@code GET /agents/…/sessions/{sid}}: the session and one bounded page of its messages (not for {@code exists}). */
    @Schema(name = "Session", requiredProperties = {"id", "agent", "closed", "visibility"})
    public static class Session {
        public String id;
        public String agent;
        public boolean closed;
        @Schema(enumeration = {"owner", "participant", "exists"})
        public String visibility;
        public String title;
        public String thread;
        public Long created;
        public List<Envelope> messages;
        public Boolean truncated;
        @Schema(description = "present when truncated: send it back as ?cursor= for the next page")
        public String next_cursor;
    }

    /** A session after a title change or close. */
    @Schema(name = "SessionSummary", requiredProperties = {"id", "agent", "title", "closed", "thread"})
    public static class SessionSummary {
        public String id;
        public String agent;
        public String title;
        public boolean closed;
        public String thread;
    }

    /** An exposure of a link side. */
    @Schema(name = "Exposure", requiredProperties = {"kind", "pattern"})
    public static class Exposure {
        @Schema(enumeration = {"agent", "pub", "sub"})
        public String kind;
        public String pattern;
    }

    /** One side's rules. */
    @Schema(name = "LinkRules", requiredProperties = {"signed_only", "ips"})
    public static class LinkRules {
        public boolean signed_only;
        public String ips;
    }

    /** A change in a link's log. */
    @Schema(name = "LinkChange", requiredProperties = {"at", "org", "who", "change", "detail"})
    public static class LinkChange {
        public long at;
        public String org;
        public String who;
        public String change;
        public String detail;
    }

    /** A link as one side sees it. */
    @Schema(name = "Link", requiredProperties = {"org", "other", "state", "proposed_by", "changed", "exposes", "rules", "log"})
    public static class Link {
        public String org;
        public String other;
        public String state;
        public String proposed_by;
        public long changed;
        @Schema(type = SchemaType.OBJECT, description = "by organisation handle: its exposures")
        public Map<String, List<Exposure>> exposes;
        @Schema(type = SchemaType.OBJECT, description = "by organisation handle: its rules")
        public Map<String, LinkRules> rules;
        public List<LinkChange> log;
    }

    /** {@code GET /links}: one bounded page. */
    @Schema(name = "Links", requiredProperties = {"links", "truncated"})
    public static class Links {
        public List<Link> links;
        public boolean truncated;
        @Schema(description = "present when truncated: send it back as ?cursor= for the next page")
        public String next_cursor;
    }

    /** A topic and who listens to it. */
    @Schema(name = "Topic", requiredProperties = {"topic", "org", "created", "subscribers"})
    public static class Topic {
        public String topic;
        public String org;
        public long created;
        public List<String> subscribers;
    }

    /** {@code GET /topics}: one bounded page. */
    @Schema(name = "Topics", requiredProperties = {"topics", "truncated"})
    public static class Topics {
        public List<Topic> topics;
        public boolean truncated;
        @Schema(description = "present when truncated: send it back as ?cursor= for the next page")
        public String next_cursor;
    }

    /** A subscription change. */
    @Schema(name = "Subscription", requiredProperties = {"agent", "topic", "subscribed", "changed"})
    public static class Subscription {
        public String agent;
        public String topic;
        public boolean subscribed;
        public boolean changed;
    }

    /** {@code PUT /agents/…/webhook} body. */
    @Schema(name = "WebhookRequest", requiredProperties = {"url"})
    public static class WebhookRequest {
        public String url;
    }

    /** A webhook set: the signing secret, in this reply only. */
    @Schema(name = "WebhookSet", requiredProperties = {"agent", "url", "secret"})
    public static class WebhookSet {
        public String agent;
        public String url;
        public String secret;
    }

    /** A webhook removed: back to the inbox. */
    @Schema(name = "WebhookRemoved", requiredProperties = {"agent", "webhook", "delivery"})
    public static class WebhookRemoved {
        public String agent;
        public boolean webhook;
        public String delivery;
    }
}
