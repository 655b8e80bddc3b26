package org.switchboard.redsyn.crypto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.switchboard.crypto.CryptoFormatException;

/**
 * A strict RFC 8259 / I-JSON reader producing a plain Java tree, so canonicalisation sees every number
 * as the double it denotes and every duplicate name or lone surrogate is refused rather than guessed.
 */
final class StrictJsonParser {

    private static final int MAX_DEPTH = 256;

    private final String text;
    private int pos;
    private int depth;

    private StrictJsonParser(String text) {
        this.text = text;
    }

    /** Parses a complete JSON text; anything after the value (but whitespace) is an error. */
    static Object parse(String text) {
        if (text == null) {
            throw new CryptoFormatException("missing JSON text");
        }
        StrictJsonParser parser = new StrictJsonParser(text);
        parser.skipWhitespace();
        Object value = parser.value();
        parser.skipWhitespace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the JSON value");
        }
        return value;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of JSON text");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        pos++; // '{'
        Map<String, Object> members = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return members;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String name = string();
            if (members.containsKey(name)) {
                throw error("duplicate object member name: " + name);
            }
            skipWhitespace();
            expect(':');
            skipWhitespace();
            members.put(name, value());
            skipWhitespace();
            char c = next();
            if (c == '}') {
                depth--;
                return members;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        enter();
        pos++; // '['
        List<Object> items = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return items;
        }
        while (true) {
            skipWhitespace();
            items.add(value());
            skipWhitespace();
            char c = next();
            if (c == ']') {
                depth--;
                return items;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        pos++; // opening quote
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                break;
            }
            if (c < 0x20) {
                throw error("unescaped control character in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"' -> sb.append('"');
                case '\\' -> sb.append('\\');
                case '/' -> sb.append('/');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> sb.append(hexEscape());
                default -> throw error("invalid escape '\\" + e + "'");
            }
        }
        String s = sb.toString();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw error("string holds a lone surrogate");
            }
        }
        return s;
    }

    private char hexEscape() {
        if (pos + 4 > text.length()) {
            throw error("truncated \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(text.charAt(pos++), 16);
            if (d < 0) {
                throw error("invalid \\u escape");
            }
            v = (v << 4) | d;
        }
        return (char) v;
    }

    private Double number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("invalid number");
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw error("a decimal point needs digits after it");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("an exponent needs digits");
            }
            digits();
        }
        String token = text.substring(start, pos);
        double d = Double.parseDouble(token);
        if (Double.isInfinite(d)) {
            throw error("number out of the IEEE 754 double range: " + token);
        }
        return d;
    }

    private void digits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("invalid literal");
        }
        pos += word.length();
        return value;
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("JSON nested deeper than " + MAX_DEPTH);
        }
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("unexpected end of JSON text");
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected '" + c + "'");
        }
    }

    private CryptoFormatException error(String message) {
        return new CryptoFormatException("invalid JSON at offset " + pos + ": " + message);
    }
}
