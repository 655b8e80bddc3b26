package org.switchboard.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JsonText} writes exactly what the JSON-P provider writes for the same members. */
class JsonTextTest {

    /** What {@link JsonText#number} must equal: the provider writes a double as BigDecimal's text of it. */
    private static String providerText(double value) {
        return java.math.BigDecimal.valueOf(value).toString();
    }

    @Test
    void writesEveryDoubleAsTheProviderDoes() {
        Random random = new Random(20261204);
        List<Double> values = new java.util.ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, 0.5, 100.0, 1e7, 1.0E10, 1.5e7,
                12345678.0, 123456789.0, 1_767_225_600.0, 1_767_225_600.25, 1_796_425_583.0324, 1e-3, 9.99e-4, 1e-7,
                -1.25e-9, Double.MAX_VALUE, Double.MIN_VALUE, -Double.MAX_VALUE, 4.9e-324, 1e21, 1e22, 123e300));
        for (int i = 0; i < 200_000; i++) {
            values.add(switch (i % 4) {
                case 0 -> Double.longBitsToDouble(random.nextLong()); // any finite or not
                case 1 -> 1.7e9 + random.nextInt(100_000_000) + random.nextInt(1_000_000) / 1e6; // wall-clock seconds
                case 2 -> (double) random.nextLong() / (1L << random.nextInt(63)); // whole and fractional, all sizes
                default -> random.nextInt(1000) * Math.pow(10, random.nextInt(40) - 20); // few digits, any exponent
            });
        }
        int checked = 0;
        for (double value : values) {
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                assertThrows(NumberFormatException.class, () -> JsonText.number(value));
                continue;
            }
            assertEquals(providerText(value), JsonText.number(value), "for " + Double.toString(value));
            checked++;
        }
        assertEquals(true, checked > 190_000, "finite values checked: " + checked);
    }

    @Test
    void matchesTheProviderForEveryKindOfMember() {
        String text = JsonText.object(64).add("s", "plain").add("l", -42L).add("d", 1_767_225_600.25)
                .add("whole", 1_767_225_600.0).add("small", 1.0E-7).add("b", true).add("f", false)
                .addStrings("a", List.of("x", "y\"z")).addJson("o", "{\"k\":1}").build();
        String expected = Jsons.PROVIDER.createObjectBuilder().add("s", "plain").add("l", -42L).add("d", 1_767_225_600.25)
                .add("whole", 1_767_225_600.0).add("small", 1.0E-7).add("b", true).add("f", false)
                .add("a", Jsons.PROVIDER.createArrayBuilder().add("x").add("y\"z"))
                .add("o", Jsons.PROVIDER.createObjectBuilder().add("k", 1)).build().toString();
        assertEquals(expected, text);
    }

    @Test
    void escapesStringsExactlyAsTheProviderDoes() {
        Random random = new Random(7);
        for (int n = 0; n < 2_000; n++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                int pick = random.nextInt(6);
                s.append(switch (pick) {
                    case 0 -> (char) random.nextInt(0x20);
                    case 1 -> '"';
                    case 2 -> '\\';
                    case 3 -> (char) (0x80 + random.nextInt(0x3000));
                    case 4 -> "\uD83D\uDE00";
                    default -> (char) (0x20 + random.nextInt(0x5f));
                });
            }
            String value = s.toString();
            String expected = Jsons.PROVIDER.createObjectBuilder().add(value, value).build().toString();
            assertEquals(expected, JsonText.object(16).add(value, value).build(), () -> "for " + value.chars().boxed().toList());
        }
    }

    @Test
    void anObjectBegunInsideAnotherOnTheSameThreadWritesItsOwnText() {
        JsonText.object(8).add("warm", "the thread's spare builder").build();
        JsonText outer = JsonText.object(8).add("a", "1");
        String inner = JsonText.object(8).add("b", "2").build();
        assertEquals("{\"a\":\"1\",\"in\":{\"b\":\"2\"}}", outer.addJson("in", inner).build());
        assertEquals("{\"c\":3}", JsonText.object(4).add("c", 3L).build());
        String big = "x".repeat(JsonText.MAX_SPARE_CHARS + 1);
        assertEquals("{\"big\":\"" + big + "\"}", JsonText.object(16).add("big", big).build());
        assertEquals("{\"d\":true}", JsonText.object(4).add("d", true).build());
    }

    @Test
    void aLongMemberAddedToAnObjectsTextIsWhatTheProviderWritesForTheCopy() {
        jakarta.json.JsonObject object = Jsons.PROVIDER.createObjectBuilder().add("type", "chat").add("body", "a \"}\" b")
                .add("n", 1.5).build();
        JsonText open = JsonText.object(8).add("a", "1");
        String expected = Jsons.PROVIDER.createObjectBuilder(object).add("seq", -7L).build().toString();
        assertEquals(expected, JsonText.withLongMember(object.toString(), "seq", -7L));
        assertEquals("{\"a\":\"1\"}", open.build());
        assertEquals(expected, JsonText.withLongMember(object.toString(), "seq", -7L));
    }

    @Test
    void aBuiltObjectTakesNoMoreMembers() {
        JsonText built = JsonText.object(8).add("a", "1");
        assertEquals("{\"a\":\"1\"}", built.build());
        JsonText next = JsonText.object(8).add("b", "2");
        assertThrows(IllegalStateException.class, () -> built.add("late", "x"));
        assertThrows(IllegalStateException.class, built::build);
        assertEquals("{\"b\":\"2\"}", next.build());
    }

    @Test
    void writesNullForAMissingStringAndRefusesNonFiniteNumbers() {
        assertEquals("{\"k\":null}", JsonText.object(8).add("k", (String) null).build());
        assertEquals("{}", JsonText.object(2).build());
        assertThrows(NumberFormatException.class, () -> JsonText.object(8).add("k", Double.NaN));
    }
}
