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

    /** Python 3 {@code repr(struct.unpack('<d', bits))} for each raw bit pattern (computed once, kept here). */
    private static final Object[][] PYTHON_REPR = {
            {"0.002", 4566758108544739836L},
            {"1e+23", 4950912855330343670L},
            {"2e+23", 4955416454957714166L},
            {"2.82879384806159e+17", 4868223978707957653L},
            {"1.9400994884341945e+25", 4985498333998215343L},
            {"5e-324", 1L},
            {"1.7976931348623157e+308", 9218868437227405311L},
            {"2.2250738585072014e-308", 4503599627370496L},
            {"1796184760.767", 4745320552920585863L},
            {"1767225607.25", 4745199089427152896L},
            {"0.1", 4591870180066957722L},
            {"0.3333333333333333", 4599676419421066581L},
            {"9007199254740992.0", 4845873199050653696L},
            {"1.23456789e-05", 4533405228038052354L},
            {"4.35", 4616583683022153318L},
            {"5.684341886080802e-14", 4409024035195715584L},
            {"1e+16", 4846369599423283200L},
            {"0.0001", 4547007122018943789L},
            {"9.99999999999e-05", 4547007122018936410L},
            {"5.153719043706271e-164", 2163907170700935595L},
            {"7.842739889255812e-221", 1314023552395036660L},
            {"8.32464578599696e-239", 1045214124729788506L},
            {"7.099136737911718e-307", 26994906461294749L},
            {"2.292389411262663e-45", 3939009930208871892L},
            {"1.673792417526182e-89", 3278915479839664310L},
    };

    @Test
    void floatsMatchPythonReprIncludingWhereJavasToStringIsNotShortest() {
        for (Object[] v : PYTHON_REPR) {
            double d = Double.longBitsToDouble((Long) v[1]);
            assertEquals(v[0], SynapseCanonicalJson.pythonRepr(d), "bits " + v[1]);
            assertEquals("-" + v[0], SynapseCanonicalJson.pythonRepr(-d), "bits " + v[1]);
        }
    }

    @Test
    void theShortcutSearchAgreesWithTheFullSearchFromOneDigit() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(16);
        for (int i = 0; i < 4_000; i++) {
            double d = i % 2 == 0 ? Math.abs(Double.longBitsToDouble(random.nextLong() & 0x7fef_ffff_ffff_ffffL))
                    : Math.round(random.nextDouble() * 1e12) / 1000.0; // deadlines and timestamps
            if (d == 0.0) {
                continue;
            }
            assertEquals(fullSearch(d), SynapseCanonicalJson.pythonRepr(d), "bits " + Double.doubleToLongBits(d));
        }
    }

    /** The search the hub did before its shortcut: every precision from 1 up (the reference). */
    private static String fullSearch(double d) {
        java.math.BigDecimal exact = new java.math.BigDecimal(d);
        for (int precision = 1; precision <= 17; precision++) {
            java.math.BigDecimal down = exact.round(new java.math.MathContext(precision, java.math.RoundingMode.FLOOR));
            java.math.BigDecimal up = exact.round(new java.math.MathContext(precision, java.math.RoundingMode.CEILING));
            boolean downOk = down.doubleValue() == d;
            boolean upOk = up.doubleValue() == d;
            if (downOk || upOk) {
                java.math.BigDecimal pick = !upOk ? down : !downOk ? up
                        : exact.subtract(down).compareTo(up.subtract(exact)) < 0 ? down
                        : exact.subtract(down).compareTo(up.subtract(exact)) > 0 ? up
                        : exact.round(new java.math.MathContext(precision, java.math.RoundingMode.HALF_EVEN));
                return reprOf(pick);
            }
        }
        throw new AssertionError("no round trip for " + d);
    }

    /** Python's layout of a shortest decimal (what pythonRepr does after its search). */
    private static String reprOf(java.math.BigDecimal shortest) {
        java.math.BigDecimal stripped = shortest.stripTrailingZeros();
        String digits = stripped.unscaledValue().toString();
        int decpt = digits.length() - stripped.scale();
        if (decpt <= -4 || decpt > 16) {
            String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            int exp = decpt - 1;
            return mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        }
        if (decpt <= 0) {
            return "0." + "0".repeat(-decpt) + digits;
        }
        if (decpt >= digits.length()) {
            return digits + "0".repeat(decpt - digits.length()) + ".0";
        }
        return digits.substring(0, decpt) + "." + digits.substring(decpt);
    }
}
