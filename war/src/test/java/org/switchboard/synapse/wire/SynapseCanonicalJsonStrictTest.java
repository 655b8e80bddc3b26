package org.switchboard.synapse.wire;

import org.switchboard.synapse.idempotency.RequestDigest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class SynapseCanonicalJsonStrictTest {

    static JsonObject parse(String json) {
        try (JsonReader r = Json.createReader(new StringReader(json))) {
            return r.readObject();
        }
    }

    @Test
    void sortsKeysRecursivelyWithoutWhitespace() {
        assertEquals("{\"a\":[1,{\"x\":true,\"y\":null}],\"b\":false}",
                SynapseCanonicalJson.ascii(parse("{ \"b\" : false, \"a\" : [ 1 , {\"y\":null, \"x\":true} ] }")));
    }

    @Test
    void keysSortByCodePointNotUtf16Unit() {
        // U+1F600 (surrogates D83D DE00) sorts after U+FFFD by code point, before it by UTF-16 unit
        JsonObject o = parse("{\"\\ud83d\\ude00\":1,\"\\ufffd\":2}");
        assertEquals("{\"\\ufffd\":2,\"\\ud83d\\ude00\":1}", SynapseCanonicalJson.ascii(o));
    }

    @Test
    void escapesLikePythonEnsureAscii() {
        JsonObject o = parse("{\"s\":\"caf\\u00e9 \\\"q\\\" back\\\\slash /\\n\\t\\u0001\\u007f\\ud83d\\ude00\"}");
        assertEquals("{\"s\":\"caf\\u00e9 \\\"q\\\" back\\\\slash /\\n\\t\\u0001\\u007f\\ud83d\\ude00\"}", SynapseCanonicalJson.ascii(o));
        assertEquals("{\"s\":\"caf\u00e9 \\\"q\\\" back\\\\slash /\\n\\t\\u0001\u007f\ud83d\ude00\"}", SynapseCanonicalJson.utf8(o));
    }

    @Test
    void integersStayIntegersAndFloatsFollowPythonRepr() {
        assertEquals("{\"a\":1,\"b\":1.0,\"c\":0.1,\"d\":1e-05,\"e\":1e+16,\"f\":1767226400.125,\"g\":100000.0,"
                        + "\"i\":12345678901234567890,\"j\":0.0001,\"k\":1000000000000000.0,\"l\":1.5e-07}",
                SynapseCanonicalJson.ascii(parse("{\"a\":1,\"b\":1.0,\"c\":0.1,\"d\":0.00001,\"e\":1e16,\"f\":1767226400.125,"
                        + "\"g\":1e5,\"i\":12345678901234567890,\"j\":0.0001,\"k\":1e15,\"l\":1.5e-7}")));
    }

    @Test
    void pythonReprExamples() {
        assertEquals("0.30000000000000004", SynapseCanonicalJson.pythonRepr(0.1 + 0.2));
        assertEquals("1e+22", SynapseCanonicalJson.pythonRepr(1e22));
        assertEquals("1.7976931348623157e+308", SynapseCanonicalJson.pythonRepr(Double.MAX_VALUE));
        assertEquals("5e-324", SynapseCanonicalJson.pythonRepr(Double.MIN_VALUE));
        assertEquals("2e+23", SynapseCanonicalJson.pythonRepr(2e23));
        assertEquals("123.456", SynapseCanonicalJson.pythonRepr(123.456));
        assertEquals("-2.5", SynapseCanonicalJson.pythonRepr(-2.5));
        assertEquals("-0.0", SynapseCanonicalJson.pythonRepr(-0.0));
        assertEquals("9007199254740992.0", SynapseCanonicalJson.pythonRepr(9007199254740993.0));
        assertEquals("1.2345678901234568e+16", SynapseCanonicalJson.pythonRepr(12345678901234567.0));
        assertThrows(NonCanonicalException.class, () -> SynapseCanonicalJson.pythonRepr(Double.NaN));
        assertThrows(NonCanonicalException.class, () -> SynapseCanonicalJson.pythonRepr(Double.POSITIVE_INFINITY));
    }

    @Test
    void digestOfAKeyedClaim() {
        // Request as routed: sender is the bound name, token and volatile keys removed.
        JsonObject frame = parse("{\"sender\":\"spoof\",\"target\":\"System\",\"type\":\"claim\",\"payload\":\"parser-split\","
                + "\"timestamp\":1767226400.0,\"task_id\":\"parser-split\",\"ttl_seconds\":1800,\"paths\":[\"src/parser\"],"
                + "\"idem_key\":\"alice-claim-42\",\"token\":\"s3cret\",\"client_timestamp\":1.0,\"auth\":{\"x\":1}}");
        String canonical = "{\"idem_key\":\"alice-claim-42\",\"paths\":[\"src/parser\"],\"payload\":\"parser-split\","
                + "\"sender\":\"proj/alice\",\"target\":\"System\",\"task_id\":\"parser-split\",\"ttl_seconds\":1800,\"type\":\"claim\"}";
        assertEquals(SynapseCanonicalJson.sha256Hex(canonical), RequestDigest.of(frame, "proj/alice", "claim"));
        // value computed independently with Python: json.dumps(d, sort_keys=True, separators=(",", ":"))
        assertEquals("d1628cb2de56fab623f38179b4707e3d62f12b0b4bbfc15485367ff169aadf7b", RequestDigest.of(frame, "proj/alice", "claim"));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", SynapseCanonicalJson.sha256Hex(""));
    }

    @Test
    void digestIgnoresVolatileKeysButNotContent() {
        JsonObject a = parse("{\"type\":\"resource_offer\",\"kind\":\"gpu\",\"name\":\"h1\",\"timestamp\":1.0,\"idem_key\":\"k\"}");
        JsonObject b = parse("{\"type\":\"resource_offer\",\"kind\":\"gpu\",\"name\":\"h1\",\"timestamp\":2.0,\"signature\":\"z\",\"idem_key\":\"k\"}");
        JsonObject c = parse("{\"type\":\"resource_offer\",\"kind\":\"gpu\",\"name\":\"h2\",\"timestamp\":1.0,\"idem_key\":\"k\"}");
        assertEquals(RequestDigest.of(a, "x", "resource"), RequestDigest.of(b, "x", "resource"));
        assertEquals(64, RequestDigest.of(a, "x", "resource").length());
        org.junit.jupiter.api.Assertions.assertNotEquals(RequestDigest.of(a, "x", "resource"), RequestDigest.of(c, "x", "resource"));
        org.junit.jupiter.api.Assertions.assertNotEquals(RequestDigest.of(a, "x", "resource"), RequestDigest.of(a, "y", "resource"));
    }
}
