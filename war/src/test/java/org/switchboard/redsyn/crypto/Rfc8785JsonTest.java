package org.switchboard.redsyn.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.switchboard.crypto.CryptoFormatException;

/** RFC 8785 vectors and the strictness rules of the canonicaliser. */
class Rfc8785JsonTest {

    /** RFC 8785 section 3.2.2: the sample input and its canonical output. */
    @Test
    void rfcSampleObject() {
        String input = "{\n"
                + "  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
                + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
                + "  \"literals\": [null, true, false]\n"
                + "}";
        String expected = "{\"literals\":[null,true,false],"
                + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
        assertEquals(expected, Rfc8785Json.canonicalize(input));
        // The same document read by a JSON-P provider canonicalises to the same text.
        assertEquals(expected, Rfc8785Json.canonicalize(read(input)));
    }

    /** RFC 8785 section 3.2.3: members sorted by UTF-16 code units (the emoji's surrogates sort before U+FB33). */
    @Test
    void rfcSortingExample() {
        String input = "{\n"
                + "  \"\\u20ac\": \"Euro Sign\",\n"
                + "  \"\\r\": \"Carriage Return\",\n"
                + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n"
                + "  \"1\": \"One\",\n"
                + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n"
                + "  \"\\u0080\": \"Control\",\n"
                + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n"
                + "}";
        String canonical = Rfc8785Json.canonicalize(input);
        List<String> valuesInOrder = Arrays.asList("Carriage Return", "One", "Control",
                "Latin Small Letter O With Diaeresis", "Euro Sign", "Emoji: Grinning Face",
                "Hebrew Letter Dalet With Dagesh");
        int last = -1;
        for (String v : valuesInOrder) {
            int at = canonical.indexOf(v);
            assertTrue(at > last, v + " out of order in " + canonical);
            last = at;
        }
        assertTrue(canonical.startsWith("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\""), canonical);
        assertEquals(canonical, Rfc8785Json.canonicalize(read(input)));
    }

    /** RFC 8785 Appendix B: IEEE 754 bit patterns and the JSON text each must produce. */
    @ParameterizedTest
    @CsvSource({
        "0000000000000000, 0",
        "8000000000000000, 0",
        "0000000000000001, 5e-324",
        "8000000000000001, -5e-324",
        "7fefffffffffffff, 1.7976931348623157e+308",
        "ffefffffffffffff, -1.7976931348623157e+308",
        "4340000000000000, 9007199254740992",
        "c340000000000000, -9007199254740992",
        "4430000000000000, 295147905179352830000",
        "44b52d02c7e14af5, 9.999999999999997e+22",
        "44b52d02c7e14af6, 1e+23",
        "44b52d02c7e14af7, 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e, 999999999999999700000",
        "444b1ae4d6e2ef4f, 999999999999999900000",
        "444b1ae4d6e2ef50, 1e+21",
        "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d, 0.000001",
        "41b3de4355555553, 333333333.3333332",
        "41b3de4355555554, 333333333.33333325",
        "41b3de4355555555, 333333333.3333333",
        "41b3de4355555556, 333333333.3333334",
        "41b3de4355555557, 333333333.33333343",
        "becbf647612f3696, -0.0000033333333333333333",
        "43143ff3c1cb0959, 1424953923781206.2",
    })
    void appendixBNumbers(String bits, String expected) {
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
        assertEquals(expected, Rfc8785Json.formatNumber(d));
        assertEquals(expected, EcmaNumber.format(d, false));
        // Reading the expected text back through the parser must give the same text again.
        assertEquals(expected, Rfc8785Json.canonicalize(expected));
    }

    @ParameterizedTest
    @CsvSource({
        "1e-7, 1e-7",
        "1e21, 1e+21",
        "1E+21, 1e+21",
        "100000000000000000000, 100000000000000000000",
        "-0, 0",
        "-0.0, 0",
        "0.0, 0",
        "1.0, 1",
        "1.5e1, 15",
        "123e-2, 1.23",
        "0.1, 0.1",
        "1e-6, 0.000001",
        "1.25e-7, 1.25e-7",
        "9007199254740993, 9007199254740992",
        "1424953923781206.25, 1424953923781206.2",
        "-12.5e300, -1.25e+301",
    })
    void numberTextIsReformatted(String input, String expected) {
        assertEquals(expected, Rfc8785Json.canonicalize(input));
        assertEquals(expected, Rfc8785Json.canonicalize(read(input)));
    }

    @Test
    void nanAndInfinityAreRefused() {
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.formatNumber(Double.NaN));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.formatNumber(Double.longBitsToDouble(0x7fffffffffffffffL)));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.formatNumber(Double.POSITIVE_INFINITY));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.formatNumber(Double.NEGATIVE_INFINITY));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize("[1e400]"));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize(read("[1e400]")));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize("[NaN]"));
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize("[Infinity]"));
    }

    /** Every double prints as a string that reads back as that same double, never longer than 17 digits. */
    @Test
    void randomDoublesRoundTrip() {
        SplittableRandom random = new SplittableRandom(8785);
        for (int i = 0; i < 4_000; i++) {
            double d = i % 2 == 0
                    ? Double.longBitsToDouble(random.nextLong())
                    : Math.round(random.nextDouble() * 1e9) / Math.pow(10, random.nextInt(12));
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            String s = Rfc8785Json.formatNumber(d);
            assertEquals(d == 0 ? 0.0 : d, Double.parseDouble(s), s);
            assertEquals(EcmaNumber.format(d, false), s, "fast path and exhaustive search disagree");
            String mantissa = s.replaceFirst("e.*", "").replace("-", "").replace(".", "").replaceFirst("^0+", "");
            assertTrue(mantissa.replaceFirst("0+$", "").length() <= 17, s);
        }
    }

    /** The fast path (JDK digits) and the exhaustive search agree on short decimals. */
    @ParameterizedTest
    @CsvSource({"0.1, 0.1", "123.456, 123.456", "2e-3, 0.002", "1e23, 1e+23", "5e-324, 5e-324",
        "0.3, 0.3", "100, 100", "1234567.125, 1234567.125", "4.35, 4.35", "2.2250738585072014e-308, 2.2250738585072014e-308"})
    void shortDecimalsKeepTheirDigits(String input, String expected) {
        assertEquals(expected, Rfc8785Json.formatNumber(Double.parseDouble(input)));
        assertEquals(expected, EcmaNumber.format(Double.parseDouble(input), false));
    }

    @Test
    void stringEscapes() {
        assertEquals("\"\\b\\f\\n\\r\\t\\u0000\\u001f\\\"\\\\/\u007f\u2028\u00e9\ud83d\ude00\"",
                Rfc8785Json.canonicalize("\"\\b\\f\\n\\r\\t\\u0000\\u001F\\\"\\\\\\/\\u007f\\u2028\u00e9\\uD83D\\uDE00\""));
    }

    @Test
    void whitespaceAndNestingAreNormalised() {
        String input = " { \"b\" : [ 1 , { \"z\" : true , \"a\" : null } ] , \"a\" : { } , \"c\" : [ ] } ";
        assertEquals("{\"a\":{},\"b\":[1,{\"a\":null,\"z\":true}],\"c\":[]}", Rfc8785Json.canonicalize(input));
    }

    @Test
    void outputIsUtf8OfTheCanonicalText() {
        byte[] bytes = Rfc8785Json.canonicalBytes(read("{\"k\":\"\u20ac\"}"));
        assertTrue(Arrays.equals("{\"k\":\"\u20ac\"}".getBytes(StandardCharsets.UTF_8), bytes));
        assertEquals(11, bytes.length); // the euro sign takes three bytes
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"a\":1,\"a\":2}",
        "\"\\ud800\"",
        "\"\\udc00x\"",
        "[1,]",
        "{\"a\":1,}",
        "01",
        "1.",
        ".5",
        "+1",
        "1e",
        "[1] x",
        "\"tab\tinside\"",
        "\"\\x\"",
        "tru",
        "",
        "{'a':1}",
    })
    void invalidJsonIsRefused(String input) {
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize(input));
    }

    @Test
    void loneSurrogateInJsonValueIsRefused() {
        JsonValue value = Json.createValue("x\ud800");
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize(value));
    }

    @Test
    void plainJavaTreesCanonicaliseLikeTheirJson() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("z", List.of(1, 2.5, "x"));
        tree.put("a", null);
        tree.put("m", Json.createObjectBuilder().add("y", 1).add("b", false).build());
        assertEquals("{\"a\":null,\"m\":{\"b\":false,\"y\":1},\"z\":[1,2.5,\"x\"]}", Rfc8785Json.canonicalizeTree(tree));
        assertEquals(Rfc8785Json.canonicalizeTree(tree), Rfc8785Json.canonicalizeTree(Rfc8785Json.parse(
                Rfc8785Json.canonicalizeTree(tree))));
    }

    @Test
    void deepNestingIsRefusedNotOverflowed() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        assertThrows(CryptoFormatException.class, () -> Rfc8785Json.canonicalize(deep));
    }

    private static JsonValue read(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readValue();
        }
    }
}
