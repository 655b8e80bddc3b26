package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.Base64;
import java.util.function.DoubleSupplier;
import java.util.logging.Logger;
import org.switchboard.json.Jsons;
import org.switchboard.logging.LogSafe;
import org.switchboard.synapse.attachments.AttachmentErrors;
import org.switchboard.synapse.attachments.AttachmentGrammar;
import org.switchboard.synapse.attachments.AttachmentRefusal;
import org.switchboard.synapse.attachments.RemoteAttachments;

/**
 * The recipient side of synapse-advanced §5 (ours: how a local agent reads a peer's object through its
 * own hub): one fresh connection to the configured source hub (§5.2: registered under this hub's id at
 * {@code protocol_version} 6, with the peer token and, when configured, the identity proof), one
 * {@code attachment_peer_request}, at most 10 s for the answer, close. The answer must come from the
 * named hub ({@code hub_id} on the welcome and the result) and fit §5.4 exactly (scope, digest, offset
 * echoed; body strict base64 of at most 32 KiB); anything else, and every refusal, is the uniform
 * {@code attachment unavailable}. Nothing is cached: every request asks the source afresh, so a grant
 * the source revokes stops the next read.
 */
public final class PeerReadClient implements RemoteAttachments {

    /** The wire version a recipient hub registers with for peer reads (§5.2). */
    public static final int PROTOCOL_VERSION = 6;
    static final String REQUEST = "attachment_peer_request";
    static final String RESULT = "attachment_peer_result";

    private static final Logger LOG = Logger.getLogger(PeerReadClient.class.getName());

    private final String hubId;
    private final MessagePeers peers;
    private final String token;
    private final PeerClient client;
    private final DoubleSupplier clock;

    /** Reads as hub {@code hubId} from the configured {@code peers}, presenting {@code token}, over {@code client}. */
    public PeerReadClient(String hubId, MessagePeers peers, String token, PeerClient client, DoubleSupplier clock) {
        this.hubId = hubId;
        this.peers = peers;
        this.token = token == null ? "" : token;
        this.client = client;
        this.clock = clock;
    }

    @Override
    public JsonObject fetch(String sourceHub, String action, String scope, String digest, Long offset) {
        MessagePeers.Peer peer = sourceHub == null ? null : peers.peers().get(sourceHub);
        if (peer == null || sourceHub.equals(hubId)) {
            throw unavailable();
        }
        JsonObject registration = Jsons.PROVIDER.createObjectBuilder(ForwardFrames.registration(hubId, token, clock.getAsDouble()))
                .add("protocol_version", PROTOCOL_VERSION).build();
        JsonObject answer;
        try {
            answer = client.request(peer, registration, request(action, scope, digest, offset),
                    frame -> answers(frame, sourceHub));
        } catch (IOException | RuntimeException e) {
            LOG.fine(() -> "peer attachment read from " + sourceHub + ": no answer (" + LogSafe.text(e.getMessage()) + ")");
            throw unavailable();
        }
        return read(answer, sourceHub, action, scope, digest, offset);
    }

    /** The §5.3 frame. */
    JsonObject request(String action, String scope, String digest, Long offset) {
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder().add("type", REQUEST).add("sender", hubId)
                .add("target", "System").add("payload", "").add("action", action).add("scope", scope).add("digest", digest);
        if (offset != null) {
            b.add("offset", offset);
        }
        return b.build();
    }

    /** The frames that end the exchange: the result, a plain error, or a welcome naming a hub other than {@code source}. */
    static boolean answers(JsonObject frame, String source) {
        String type = text(frame, "type");
        return RESULT.equals(type) || "error".equals(type)
                || "welcome".equals(type) && frame.containsKey("hub_id") && !source.equals(text(frame, "hub_id"));
    }

    /**
     * The agent's result fields from the source's answer, or the uniform refusal: the frame must be an
     * {@code attachment_peer_result} from {@code source} with {@code ok:true} and the §5.4 success shape
     * for this request. A welcome ends the exchange only when it names another hub (a mismatch).
     */
    static JsonObject read(JsonObject answer, String source, String action, String scope, String digest, Long offset) {
        if (answer == null || !RESULT.equals(text(answer, "type")) || !source.equals(text(answer, "hub_id"))
                || answer.get("ok") != JsonValue.TRUE) {
            throw unavailable();
        }
        try {
            return "info".equals(action) ? info(answer, scope, digest) : chunk(answer, scope, digest, offset);
        } catch (AttachmentRefusal | ClassCastException | ArithmeticException e) {
            throw unavailable();
        }
    }

    private static JsonObject info(JsonObject answer, String scope, String digest) {
        if (!(answer.get("metadata") instanceof JsonObject m) || !scope.equals(text(m, "scope"))
                || !digest.equals(text(m, "digest")) || !(m.get("length") instanceof JsonNumber length)
                || !length.isIntegral() || !(m.get("expires_at") instanceof JsonNumber expires)) {
            throw unavailable();
        }
        long bytes = length.longValueExact();
        if (bytes < 0 || bytes > AttachmentGrammar.MAX_LENGTH) {
            throw unavailable();
        }
        return Jsons.PROVIDER.createObjectBuilder().add("metadata", Jsons.PROVIDER.createObjectBuilder()
                .add("scope", scope).add("digest", digest).add("length", bytes)
                .add("media_type", AttachmentGrammar.mediaType(text(m, "media_type")))
                .add("provenance", AttachmentGrammar.provenance(text(m, "provenance")))
                .add("expires_at", expires)).build();
    }

    private static JsonObject chunk(JsonObject answer, String scope, String digest, Long offset) {
        JsonValue eof = answer.get("eof");
        if (!scope.equals(text(answer, "scope")) || !digest.equals(text(answer, "digest"))
                || !(answer.get("offset") instanceof JsonNumber at) || !at.isIntegral() || at.longValueExact() != offset
                || eof != JsonValue.TRUE && eof != JsonValue.FALSE
                || !(answer.get("body") instanceof JsonString body) || body.getString().length() > AttachmentGrammar.MAX_ENCODED_CHUNK) {
            throw unavailable();
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(body.getString());
        } catch (IllegalArgumentException e) {
            throw unavailable();
        }
        if (bytes.length > AttachmentGrammar.MAX_CHUNK || bytes.length == 0 && eof != JsonValue.TRUE) {
            throw unavailable();
        }
        return Jsons.PROVIDER.createObjectBuilder().add("body", Base64.getEncoder().encodeToString(bytes)).add("eof", eof)
                .add("offset", offset).add("digest", digest).build();
    }

    private static AttachmentRefusal unavailable() {
        return new AttachmentRefusal(AttachmentErrors.UNAVAILABLE);
    }

    private static String text(JsonObject o, String key) {
        return o.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
