package org.switchboard.synapse.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class SynapseCanonicalJsonTest {

    private static String canonical(String json) {
        return SynapseCanonicalJson.ascii(Json.createReader(new StringReader(json)).readValue());
    }

    @Test
    void sortsKeysRecursivelyWithoutWhitespace() {
        assertEquals("{\"a\":[1,{\"x\":true,\"y\":null}],\"b\":\"s\"}",
                canonical("{ \"b\" : \"s\", \"a\" : [ 1, { \"y\": null, \"x\": true } ] }"));
    }

    @Test
    void escapesLikePythonEnsureAscii() {
        assertEquals("\"\\u00e9\\n\\t\\\"\\\\/\\u007f\\u0001\"", canonical("\"é\\n\\t\\\"\\\\/\\u007f\\u0001\""));
        assertEquals("\"\\ud83d\\ude00\"", canonical("\"\uD83D\uDE00\""));
    }

    @Test
    void keysSortByCodePointNotUtf16Unit() {
        // U+FF61 sorts after U+1F600 in UTF-16 units but before it by code point
        String json = "{\"\uD83D\uDE00\":1,\"\uFF61\":2}";
        assertEquals("{\"\\uff61\":2,\"\\ud83d\\ude00\":1}", canonical(json));
    }

    @Test
    void integersStayIntegersAndFloatsUsePythonRepr() {
        assertEquals("[1,-5,123456789012345678901234567890]", canonical("[1,-5,123456789012345678901234567890]"));
        assertEquals("[1.0,0.1,1e-05,1e+16,123.456,1.5e+300,0.0001,-2.5]",
                canonical("[1.0,0.1,0.00001,1e16,123.456,1.5e300,0.0001,-2.5]"));
        assertEquals("1e+100", SynapseCanonicalJson.pythonRepr(1e100));
        assertEquals("1234567890123456.0", SynapseCanonicalJson.pythonRepr(1234567890123456.0));
        assertEquals("1.2345678901234568e+16", SynapseCanonicalJson.pythonRepr(12345678901234567.0));
        assertEquals("0.30000000000000004", SynapseCanonicalJson.pythonRepr(0.1 + 0.2));
    }

    @Test
    void digestIsLowerHexSha256OfTheCanonicalForm() {
        String digest = SynapseCanonicalJson.sha256Hex(Json.createReader(new StringReader("{\"b\":1,\"a\":2}")).readValue());
        String same = SynapseCanonicalJson.sha256Hex(Json.createReader(new StringReader("{\"a\":2,\"b\":1}")).readValue());
        assertEquals(digest, same);
        assertTrue(digest.matches("[0-9a-f]{64}"));
        // Python: hashlib.sha256(json.dumps({"b":1,"a":2}, sort_keys=True, separators=(",",":")).encode())
        assertEquals("d3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772", digest);
    }
}
