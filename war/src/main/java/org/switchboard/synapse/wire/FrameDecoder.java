package org.switchboard.synapse.wire;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;

/**
 * The bounded inbound JSON decoder (synapse-core §6.2): a linear pre-scan rejects nesting deeper
 * than the limit and over-long integer literals before the parser ever sees the text; after
 * parsing, numbers that overflow to non-finite doubles are rejected. NaN/Infinity are not JSON
 * and fail the parse.
 */
public final class FrameDecoder {

    /** Default nesting limit. */
    public static final int MAX_DEPTH = 64;
    /** Default longest integer literal (Python's default int-conversion limit). */
    public static final int MAX_INTEGER_DIGITS = 4300;

    private final int maxDepth;
    private final int maxIntegerDigits;

    /** A decoder with explicit limits. */
    public FrameDecoder(int maxDepth, int maxIntegerDigits) {
        this.maxDepth = maxDepth;
        this.maxIntegerDigits = maxIntegerDigits;
    }

    /** A decoder with the spec's default limits. */
    public FrameDecoder() {
        this(MAX_DEPTH, MAX_INTEGER_DIGITS);
    }

    /** Decodes one frame; throws {@link MalformedJsonException} for anything the spec calls malformed. */
    public JsonValue decode(String text) {
        preScan(text);
        JsonValue value;
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (JsonException | IllegalStateException | NumberFormatException | ArithmeticException e) {
            throw new MalformedJsonException("parse failed");
        }
        rejectNonFinite(value);
        return value;
    }

    /** Linear scan: nesting depth outside strings (honouring escapes) and integer literal length. */
    void preScan(String text) {
        int depth = 0;
        boolean inString = false;
        int digitRun = 0;
        boolean integerRun = false;
        char previous = 0;
        char beforePrevious = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++; // skip the escaped character
                } else if (c == '"') {
                    inString = false;
                }
                previous = c;
                continue;
            }
            if (c >= '0' && c <= '9') {
                if (digitRun == 0) {
                    integerRun = !(previous == '.' || previous == 'e' || previous == 'E' || previous == '+'
                            || (previous == '-' && (beforePrevious == 'e' || beforePrevious == 'E')));
                }
                digitRun++;
                if (integerRun && digitRun > maxIntegerDigits) {
                    throw new MalformedJsonException("integer literal too long");
                }
            } else {
                digitRun = 0;
                if (c == '"') {
                    inString = true;
                } else if (c == '[' || c == '{') {
                    if (++depth > maxDepth) {
                        throw new MalformedJsonException("nesting too deep");
                    }
                } else if (c == ']' || c == '}') {
                    depth--;
                }
            }
            beforePrevious = previous;
            previous = c;
        }
    }

    private static void rejectNonFinite(JsonValue value) {
        switch (value.getValueType()) {
            case NUMBER -> {
                JsonNumber number = (JsonNumber) value;
                if (!number.isIntegral() && !Double.isFinite(number.doubleValue())) {
                    throw new MalformedJsonException("non-finite number");
                }
            }
            case OBJECT -> {
                for (JsonValue member : ((JsonObject) value).values()) {
                    rejectNonFinite(member);
                }
            }
            case ARRAY -> {
                for (JsonValue member : (JsonArray) value) {
                    rejectNonFinite(member);
                }
            }
            default -> {
            }
        }
    }

    /** Thrown for any input the spec answers with {@code Malformed JSON.}. */
    public static final class MalformedJsonException extends RuntimeException {
        /** A malformed-input failure with a short internal reason (never sent to clients). */
        public MalformedJsonException(String reason) {
            super(reason, null, false, false);
        }
    }
}
