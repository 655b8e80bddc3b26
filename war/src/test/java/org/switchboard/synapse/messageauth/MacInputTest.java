package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/**
 * Published vectors of the §6.3 MAC input (CJ-UTF8 of the frame minus {@code auth.value}) and its
 * HMAC-SHA256. The expected texts and MACs were computed independently with Python 3:
 * {@code json.dumps(frame, sort_keys=True, separators=(",", ":"), ensure_ascii=False)} over the frame
 * without {@code auth.value}, then {@code hmac.new(secret.encode(), text.encode("utf-8"), sha256).hexdigest()}.
 */
class MacInputTest {

    /** Vector 1: a plain claim, float timestamp, integer sequence, array value. */
    static final String FRAME_1 = "{\"type\":\"claim\",\"sender\":\"team/alice\",\"task_id\":\"t-1\","
            + "\"paths\":[\"src/parser\"],\"ttl_seconds\":300,\"auth\":{\"alg\":\"hmac-sha256\",\"kid\":\"k1\","
            + "\"nonce\":\"bm9uY2UtMQ\",\"sequence\":17,\"timestamp\":1790000000.5,\"value\":\"x\"}}";
    static final String SECRET_1 = "s3cret-k1";
    static final String TEXT_1 = "{\"auth\":{\"alg\":\"hmac-sha256\",\"kid\":\"k1\",\"nonce\":\"bm9uY2UtMQ\","
            + "\"sequence\":17,\"timestamp\":1790000000.5},\"paths\":[\"src/parser\"],\"sender\":\"team/alice\","
            + "\"task_id\":\"t-1\",\"ttl_seconds\":300,\"type\":\"claim\"}";
    static final String MAC_1 = "8339c7a3447da1f61ab198356d059119ccc5487d91d7fb54842781bac8e222c3";

    /** Vector 2: non-ASCII (Latin, euro sign, CJK, an astral emoji), nested objects and arrays, integral float, negative, null, bool. */
    static final String FRAME_2 = "{\"type\":\"task_update\",\"sender\":\"équipe/zoë\",\"task_id\":\"tâche-€\","
            + "\"note\":\"naïve café 日本語 😀\",\"detail\":{\"z\":[1,2.5,{\"b\":true,\"a\":null}],\"a\":{\"y\":-3,\"x\":0.1}},"
            + "\"auth\":{\"alg\":\"hmac-sha256\",\"kid\":\"k1\",\"nonce\":\"n-2\",\"sequence\":17,"
            + "\"timestamp\":1790000000.0,\"value\":\"x\"}}";
    static final String SECRET_2 = "clé-secrète";
    static final String TEXT_2 = "{\"auth\":{\"alg\":\"hmac-sha256\",\"kid\":\"k1\",\"nonce\":\"n-2\",\"sequence\":17,"
            + "\"timestamp\":1790000000.0},\"detail\":{\"a\":{\"x\":0.1,\"y\":-3},\"z\":[1,2.5,{\"a\":null,\"b\":true}]},"
            + "\"note\":\"naïve café 日本語 😀\",\"sender\":\"équipe/zoë\",\"task_id\":\"tâche-€\",\"type\":\"task_update\"}";
    static final String MAC_2 = "d0f44525674cf45e63fb06b4074d21c6caaf1088ca847dbbff443166a6c6614c";

    static JsonObject parse(String text) {
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    @Test
    void plainClaimVector() {
        JsonObject frame = parse(FRAME_1);
        assertEquals(TEXT_1, MacInput.text(frame));
        assertEquals(MAC_1, MacInput.hmacHex(SECRET_1.getBytes(StandardCharsets.UTF_8), MacInput.bytes(frame)));
    }

    @Test
    void nonAsciiNestedAndNumbersVector() {
        JsonObject frame = parse(FRAME_2);
        assertEquals(TEXT_2, MacInput.text(frame));
        assertEquals(MAC_2, MacInput.hmacHex(SECRET_2.getBytes(StandardCharsets.UTF_8), MacInput.bytes(frame)));
    }

    @Test
    void onlyAuthValueIsLeftOut() {
        // a different value changes nothing; any other auth field changes the input
        JsonObject a = parse(FRAME_1);
        JsonObject b = parse(FRAME_1.replace("\"value\":\"x\"", "\"value\":\"something else\""));
        JsonObject c = parse(FRAME_1.replace("\"sequence\":17", "\"sequence\":18"));
        assertEquals(MacInput.text(a), MacInput.text(b));
        org.junit.jupiter.api.Assertions.assertNotEquals(MacInput.text(a), MacInput.text(c));
    }

    @Test
    void theStreamedBytesEqualTheCanonicalTextOfTheFrameWithoutAuthValue() {
        // the per-frame writer against the reference path (copy the frame without auth.value, then CJ-UTF8)
        java.util.Random random = new java.util.Random(17);
        String[] texts = {"plain", "naïve café 日本語 😀", "quote \" backslash \\ tab \t nl \n", "\u0001\u001f\u007f",
                "ÿ€\uffff", "a\ud800b", "\udc00", "𝄞x", "", "/\u2028"};
        for (int i = 0; i < 2_000; i++) {
            jakarta.json.JsonObjectBuilder auth = Jsons.PROVIDER.createObjectBuilder().add("alg", "hmac-sha256")
                    .add("kid", texts[random.nextInt(texts.length)]).add("nonce", "n" + i);
            if (random.nextBoolean()) {
                auth.add("value", "v" + i);
            }
            if (random.nextBoolean()) {
                auth.add("timestamp", 1790000000 + random.nextInt(1000) / 8.0);
            }
            jakarta.json.JsonObjectBuilder frame = Jsons.PROVIDER.createObjectBuilder()
                    .add(texts[random.nextInt(texts.length)] + "k", texts[random.nextInt(texts.length)])
                    .add("n", random.nextBoolean() ? Jsons.PROVIDER.createValue(random.nextLong())
                            : Jsons.PROVIDER.createValue(random.nextDouble() * 1e6))
                    .add("nested", Jsons.PROVIDER.createObjectBuilder().add("value", "kept below the frame's auth")
                            .add("auth", Jsons.PROVIDER.createObjectBuilder().add("value", "kept too"))
                            .add("list", Jsons.PROVIDER.createArrayBuilder().add(true).addNull().add(false).add(i)))
                    .add("auth", auth);
            JsonObject built = parse(frame.build().toString());
            byte[] expected = org.switchboard.synapse.wire.SynapseCanonicalJson
                    .utf8(MacInput.withoutMember(built, "auth", "value")).getBytes(StandardCharsets.UTF_8);
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected, MacInput.bytes(built), built.toString());
        }
    }

    @Test
    void theReusableMacMatchesOnlyTheExactLowercaseHexValue() {
        javax.crypto.Mac mac = MacInput.newMac(SECRET_1.getBytes(StandardCharsets.UTF_8));
        MacInput.Buffer buffer = new MacInput.Buffer(16); // grows as needed
        JsonObject frame = parse(FRAME_1);
        for (int round = 0; round < 3; round++) { // the Mac and buffer are reused frame after frame
            org.junit.jupiter.api.Assertions.assertTrue(MacInput.matches(mac, frame, MAC_1, buffer));
            org.junit.jupiter.api.Assertions.assertFalse(MacInput.matches(mac, frame, MAC_1.toUpperCase(), buffer));
            org.junit.jupiter.api.Assertions.assertFalse(MacInput.matches(mac, frame, MAC_1.substring(1), buffer));
            org.junit.jupiter.api.Assertions.assertFalse(MacInput.matches(mac, frame, MAC_1 + "0", buffer));
            org.junit.jupiter.api.Assertions.assertFalse(MacInput.matches(mac, frame,
                    (MAC_1.charAt(63) == '0' ? MAC_1.substring(0, 63) + "1" : MAC_1.substring(0, 63) + "0"), buffer));
            org.junit.jupiter.api.Assertions.assertTrue(MacInput.matches(mac, parse(FRAME_2),
                    MacInput.hmacHex(SECRET_1.getBytes(StandardCharsets.UTF_8), MacInput.bytes(parse(FRAME_2))), buffer));
        }
    }
}
