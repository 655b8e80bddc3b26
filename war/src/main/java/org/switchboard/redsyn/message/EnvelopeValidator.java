package org.switchboard.redsyn.message;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.address.AddressException;
import org.switchboard.redsyn.address.AddressResolver;

/**
 * The field rules of the envelope table. Refusals are 422 (413 for a body or zip over its limit),
 * worded after the field that broke the rule.
 */
public final class EnvelopeValidator {

    /** Ids and thread ids chosen by clients. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final int maxBodyBytes;
    private final int maxZipBytes;

    public EnvelopeValidator(int maxBodyBytes, int maxZipBytes) {
        this.maxBodyBytes = maxBodyBytes;
        this.maxZipBytes = maxZipBytes;
    }

    /** Checks every field of {@code e} and returns the parsed envelope. */
    public EnvelopeDraft validate(JsonObject e) {
        JsonValue v = e.get("v");
        if (!(v instanceof JsonNumber n) || !n.isIntegral() || n.longValue() != 1) {
            throw invalid("v must be 1");
        }
        String id = optionalId(e, "id");
        Kind kind = Kind.fromWire(optionalString(e, "kind"));
        if (kind == null) {
            throw invalid("kind must be request, progress, reply or event");
        }
        String fromText = optionalString(e, "from");
        if (fromText == null) {
            throw invalid("from is required: one of your agents, full address");
        }
        Address from;
        try {
            from = Address.parse(fromText);
        } catch (AddressException ex) {
            throw invalid("from: " + ex.getMessage());
        }
        if (from.wantsNewSession()) {
            throw invalid("from cannot be #new");
        }
        String to = optionalString(e, "to");
        String replyTo = optionalId(e, "reply_to");
        if (kind.answersRequest()) {
            to = null; // not used on progress and reply
            if (replyTo == null) {
                throw invalid("reply_to is required on " + kind.wire() + ": the id of the request");
            }
        } else {
            if (replyTo != null) {
                throw invalid("reply_to is only for progress and reply");
            }
            if (to == null || to.isBlank()) {
                throw invalid("to is required on " + kind.wire());
            }
            if (kind == Kind.EVENT && !AddressResolver.isTopic(to)) {
                throw invalid("an event goes to a topic: to must be topic:...");
            }
            if (kind == Kind.REQUEST && AddressResolver.isTopic(to)) {
                throw invalid("a request goes to an agent; publish to a topic with kind event");
            }
        }
        String thread = optionalId(e, "thread");
        Long ts = optionalNonNegative(e, "ts");
        Long ttl = optionalNonNegative(e, "ttl");
        if (ttl != null && ttl == 0) {
            throw invalid("ttl must be a positive number of seconds");
        }
        JsonObject body = body(e);
        String bodyJson = body.toString();
        if (bodyJson.getBytes(StandardCharsets.UTF_8).length > maxBodyBytes) {
            throw new RedsynException(413, "body is larger than " + (maxBodyBytes / 1024) + " KB");
        }
        JsonArray refs = refs(e);
        byte[] zip = files(e);
        boolean error = false;
        JsonValue err = e.get("error");
        if (err != null && err != JsonValue.NULL) {
            if (err != JsonValue.TRUE && err != JsonValue.FALSE) {
                throw invalid("error must be true or false");
            }
            error = err == JsonValue.TRUE;
            if (error && kind != Kind.REPLY) {
                throw invalid("error is only for a reply");
            }
        }
        JsonObject sig = sig(e);
        if (sig != null && ts == null) {
            throw invalid("ts is required on a signed envelope");
        }
        return new EnvelopeDraft(id, kind, from, to, thread, replyTo, ts, ttl, body, bodyJson, refs, zip, error, sig);
    }

    private static JsonObject body(JsonObject e) {
        JsonValue b = e.get("body");
        if (!(b instanceof JsonObject body)) {
            throw invalid("body is required: an object with a type");
        }
        String type = body.get("type") instanceof JsonString s ? s.getString() : null;
        if ("text/plain".equals(type)) {
            if (!(body.get("text") instanceof JsonString)) {
                throw invalid("a text/plain body needs text");
            }
        } else if ("application/json".equals(type)) {
            if (!body.containsKey("data")) {
                throw invalid("an application/json body needs data");
            }
        } else if (EnvelopeDraft.ENCRYPTED_TYPE.equals(type)) {
            if (!(body.get("enc") instanceof JsonObject)) {
                throw invalid("an encrypted body needs enc");
            }
        } else {
            throw invalid("body.type must be text/plain, application/json or " + EnvelopeDraft.ENCRYPTED_TYPE);
        }
        return body;
    }

    private static JsonArray refs(JsonObject e) {
        JsonValue r = e.get("refs");
        if (r == null || r == JsonValue.NULL) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        if (!(r instanceof JsonArray refs)) {
            throw invalid("refs must be a list");
        }
        for (JsonValue ref : refs) {
            if (!(ref instanceof JsonObject)) {
                throw invalid("each ref must be an object such as {\"url\", \"note\"}");
            }
        }
        return refs;
    }

    private byte[] files(JsonObject e) {
        JsonValue f = e.get("files");
        if (f == null || f == JsonValue.NULL) {
            return null;
        }
        if (!(f instanceof JsonObject files) || !(files.get("zip") instanceof JsonString zipText)) {
            throw invalid("files must be {\"zip\": base64}");
        }
        String text = zipText.getString();
        // quick bound before decoding: base64 is 4/3 of the bytes
        if ((long) text.length() * 3 / 4 > maxZipBytes + 3L) {
            throw tooBigZip();
        }
        byte[] zip;
        try {
            zip = Base64.getMimeDecoder().decode(text);
        } catch (IllegalArgumentException ex) {
            throw invalid("files.zip is not base64");
        }
        if (zip.length == 0) {
            throw invalid("files.zip is empty");
        }
        if (zip.length > maxZipBytes) {
            throw tooBigZip();
        }
        return zip;
    }

    private RedsynException tooBigZip() {
        return new RedsynException(413, "files.zip is larger than " + (maxZipBytes / (1024 * 1024)) + " MB");
    }

    private static JsonObject sig(JsonObject e) {
        JsonValue s = e.get("sig");
        if (s == null || s == JsonValue.NULL) {
            return null;
        }
        if (!(s instanceof JsonObject sig) || !(sig.get("alg") instanceof JsonString)
                || !(sig.get("key") instanceof JsonString) || !(sig.get("value") instanceof JsonString)) {
            throw invalid("sig must be {\"alg\", \"key\", \"value\"}");
        }
        return sig;
    }

    private static String optionalString(JsonObject e, String name) {
        JsonValue v = e.get(name);
        if (v == null || v == JsonValue.NULL) {
            return null;
        }
        if (!(v instanceof JsonString s)) {
            throw invalid(name + " must be a string");
        }
        return s.getString();
    }

    private static String optionalId(JsonObject e, String name) {
        String id = optionalString(e, name);
        if (id != null && !ID.matcher(id).matches()) {
            throw invalid(name + " must be 1 to 128 letters, digits, '.', '_', ':' or '-'");
        }
        return id;
    }

    private static Long optionalNonNegative(JsonObject e, String name) {
        JsonValue v = e.get(name);
        if (v == null || v == JsonValue.NULL) {
            return null;
        }
        if (!(v instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < 0) {
            throw invalid(name + " must be a whole number of seconds");
        }
        return n.longValue();
    }

    private static RedsynException invalid(String message) {
        return RedsynException.unprocessable(message);
    }
}
