package org.switchboard.redsyn.crypto;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import org.switchboard.crypto.CryptoFormatException;

/**
 * Formats an IEEE 754 double the way ECMAScript's Number.prototype.toString does, as RFC 8785 section
 * 3.2.2.3 requires: the shortest decimal that reads back as the same double, in plain or exponent form.
 */
public final class EcmaNumber {

    /** Integers below 2^53 are printed directly; everything else takes the shortest-digits search. */
    private static final double EXACT_INTEGER_LIMIT = 9007199254740992d;

    private EcmaNumber() {
    }

    /**
     * The ECMAScript string of a finite double; -0 gives "0".
     *
     * @throws CryptoFormatException for NaN and the infinities, which JSON cannot carry
     */
    public static String format(double value) {
        return format(value, true);
    }

    /** As {@link #format(double)}; {@code fastPath} false forces the exhaustive search (tests compare both). */
    static String format(double value, boolean fastPath) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new CryptoFormatException("NaN and Infinity are not valid JSON numbers");
        }
        if (value == 0) {
            return "0";
        }
        StringBuilder out = new StringBuilder(26);
        double magnitude = value;
        if (value < 0) {
            out.append('-');
            magnitude = -value;
        }
        if (magnitude < EXACT_INTEGER_LIMIT && magnitude == Math.rint(magnitude)) {
            return out.append((long) magnitude).toString();
        }
        BigDecimal shortest = shortestRoundTrip(magnitude, fastPath).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale(); // value = 0.d1d2..dk * 10^n
        layout(out, digits, k, n);
        return out.toString();
    }

    /**
     * The decimal with the fewest significant digits that reads back as {@code d}; among two such
     * decimals of the same length, the one closer to d, and on a tie the one whose last digit is even
     * (ECMA-262 Number::toString, step 5 and its note).
     */
    private static BigDecimal shortestRoundTrip(double d, boolean fastPath) {
        // Fast path: two distinct decimals of at most 15 significant digits never denote the same normal
        // double (DBL_DIG is 15), so a round-tripping JDK string of <= 15 digits is the unique shortest
        // one. Subnormals have less precision (Double.toString(4.9e-324) is not the shortest "5e-324").
        if (fastPath && d >= Double.MIN_NORMAL) {
            BigDecimal jdk = new BigDecimal(Double.toString(d)).stripTrailingZeros();
            if (jdk.precision() <= 15 && readsBackAs(jdk, d)) {
                return jdk;
            }
        }
        BigDecimal exact = new BigDecimal(d);
        // Whether some p-digit decimal reads back as d only grows with p (a p-digit decimal is also a
        // (p+1)-digit one), so the shortest length can be found by bisection; 17 digits always suffice.
        int low = 1;
        int high = 17;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (candidate(exact, d, mid) != null) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        BigDecimal shortest = candidate(exact, d, low);
        if (shortest == null) {
            // 17 significant digits always identify a double; reaching here would be a JDK parsing bug.
            throw new IllegalStateException("no round-trip decimal for " + d);
        }
        return shortest;
    }

    /** The best precision-digit decimal that reads back as d, or null when none does. */
    private static BigDecimal candidate(BigDecimal exact, double d, int precision) {
        BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
        BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
        boolean downOk = readsBackAs(down, d);
        boolean upOk = readsBackAs(up, d);
        if (downOk && upOk && down.compareTo(up) != 0) {
            int cmp = exact.subtract(down).compareTo(up.subtract(exact));
            if (cmp != 0) {
                return cmp < 0 ? down : up;
            }
            return lastDigitEven(down) ? down : up;
        }
        if (downOk) {
            return down;
        }
        return upOk ? up : null;
    }

    private static boolean readsBackAs(BigDecimal candidate, double d) {
        return Double.parseDouble(candidate.toString()) == d;
    }

    private static boolean lastDigitEven(BigDecimal decimal) {
        BigInteger unscaled = decimal.unscaledValue();
        return !unscaled.testBit(0);
    }

    /** ECMA-262 Number::toString steps 6 to 10, given digits s (length k) and exponent n. */
    private static void layout(StringBuilder out, String digits, int k, int n) {
        if (k <= n && n <= 21) {
            out.append(digits);
            out.append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int exponent = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
    }
}
