package org.switchboard.synapse.wire;

import org.switchboard.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import java.io.StringReader;

/**
 * The bounded inbound JSON decoder (synapse-core §6.2): a linear pre-scan rejects nesting deeper
 * than the limit and over-long number literals before the parser ever sees the text; after
 * parsing, numbers that overflow to non-finite doubles are rejected. NaN/Infinity are not JSON
 * and fail the parse. Whatever the parser refuses is malformed JSON, never another failure.
 *
 * <p>Number literals: the spec bounds integer literals at 4300 digits (Python's default int-conversion
 * limit). [DESIGN] The same bound applies to every number literal's digits taken together (integer
 * part, fraction and exponent), so no literal of more than 4300 digits reaches the parser whatever its
 * form; Python would accept longer floats, but none is a double any more precisely than 17 digits make it.
 */
public final class FrameDecoder {

    /** Default nesting limit. */
    public static final int MAX_DEPTH = 64;
    /** Default most digits in one number literal (Python's default int-conversion limit). */
    public static final int MAX_INTEGER_DIGITS = 4300;

    /** Readers allowing literals up to the default bound (Parsson's own default stops at 1100 characters). */
    private static final JsonReaderFactory READERS = Jsons.PROVIDER.createReaderFactory(Jsons.LONG_NUMBERS);

    private final int maxDepth;
    private final int maxNumberDigits;

    /** A decoder with explicit limits: nesting depth and digits in one number literal. */
    public FrameDecoder(int maxDepth, int maxNumberDigits) {
        this.maxDepth = maxDepth;
        this.maxNumberDigits = maxNumberDigits;
    }

    /** A decoder with the spec's default limits. */
    public FrameDecoder() {
        this(MAX_DEPTH, MAX_INTEGER_DIGITS);
    }

    /** Decodes one frame; throws {@link MalformedJsonException} for anything the spec calls malformed. */
    public JsonValue decode(String text) {
        preScan(text);
        JsonValue value;
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (RuntimeException e) {
            // JsonException for bad syntax, but also Parsson's own limits (UnsupportedOperationException),
            // NumberFormatException for an exponent out of range: all of it is the client's malformed text
            throw new MalformedJsonException("parse failed");
        }
        rejectNonFinite(value);
        return value;
    }

    /**
     * Linear scan: nesting depth outside strings (honouring escapes) and the digits of each number literal
     * (a run of digits, '.', 'e', 'E', '+', '-' outside strings), stopping at the first excess.
     */
    void preScan(String text) {
        int depth = 0;
        boolean inString = false;
        int numberDigits = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++; // skip the escaped character
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c >= '0' && c <= '9') {
                if (++numberDigits > maxNumberDigits) {
                    throw new MalformedJsonException("number literal too long");
                }
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                continue; // inside (or starting) a number literal: its digits keep counting
            } else {
                numberDigits = 0;
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
