package org.switchboard.itests.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * Generates hostile SYNAPSE frames from a seeded {@link Random}: mutated valid frames of many types,
 * garbage, deep nesting, long numbers, huge and oversized strings, binary frames and control characters.
 * Each frame carries the name of its class, so a failure can be reported by class.
 */
final class SynapseFrames {

    /** One frame to send: the fuzz class, the opcode (1 text, 2 binary), the bytes and how many fragments. */
    record Frame(String kind, int opcode, byte[] bytes, int fragments) {

        /** The first characters of the frame, printable, for a failure report. */
        String preview() {
            String text = new String(bytes, 0, Math.min(bytes.length, 160), StandardCharsets.UTF_8);
            return kind + " (" + bytes.length + " bytes" + (opcode == 2 ? ", binary" : "")
                    + (fragments > 1 ? ", " + fragments + " fragments" : "") + "): " + Strings.printable(text);
        }
    }

    static final List<String> TYPES = List.of("heartbeat", "chat", "ack", "claim", "release", "task_update", "handoff",
            "checkpoint", "wait_request", "resource_offer", "offer_resource", "ledger_task", "ledger_task_update",
            "ledger_progress", "board_request", "advertise", "manifest_request", "state_request", "who_request",
            "history_request", "resume_request", "channel_create", "channel_invite", "channel_join", "channel_leave",
            "channel_list_request", "channel_history_request", "delivery_request", "delivery_status_request",
            "delivery_cancel", "attachment_begin", "attachment_chunk", "attachment_commit", "attachment_read",
            "identity_enroll", "spend_request", "recall_log", "finding", "multihub_log_request", "Chat", " CHAT ", "");

    /** Fields a frame of some type may carry, with a plausible value each. */
    private static final String[][] FIELDS = {
            {"payload", "\"hello\""}, {"target", "\"fuzz/monitor\""}, {"target", "\"all\""}, {"target", "\"fuzz/*\""},
            {"client_msg_id", "\"c-1\""}, {"receipt_requested", "true"}, {"metadata", "{\"k\":\"v\"}"},
            {"limit", "5"}, {"history_target", "\"fuzz/monitor\""}, {"history_client_msg_id", "\"c-1\""},
            {"since_seq", "0"}, {"mailbox", "true"}, {"mailbox_for", "\"fuzz/f0\""}, {"roles", "[\"fuzz/reviewer\"]"},
            {"inbox_query", "{\"version\":1,\"identity\":\"fuzz/f0\",\"hub_id\":\"\",\"since_seq\":0,\"limit\":50}"},
            {"task_id", "\"t-1\""}, {"paths", "[\"src/a.txt\"]"}, {"scope", "\"src/**\""}, {"lease_seconds", "60"},
            {"expected_version", "1"}, {"epoch", "1"}, {"status", "\"done\""}, {"note", "\"progress\""},
            {"to", "\"fuzz/f1\""}, {"channel", "\"room\""}, {"members", "[\"fuzz/f1\"]"}, {"idem_key", "\"k-1\""},
            {"priority", "\"high\""}, {"seq", "1"}, {"ack_seq", "1"}, {"through_seq", "3"}, {"wire_version", "6"},
            {"capabilities", "[\"mailbox\"]"}, {"card", "{\"name\":\"x\"}"}, {"resource", "{\"kind\":\"gpu\"}"},
            {"attachment_id", "\"a-1\""}, {"size", "10"}, {"chunk", "\"aGVsbG8=\""}, {"index", "0"}, {"token", "\"wrong\""},
    };

    private final Random random;
    private String sender;

    SynapseFrames(Random random, String sender) {
        this.random = random;
        this.sender = sender;
    }

    /** The registered name the next frames claim as their sender. */
    void sender(String name) {
        this.sender = name;
    }

    Frame next() {
        int dice = random.nextInt(100);
        if (dice < 40) {
            return text("mutated", mutated());
        } else if (dice < 48) {
            return text("garbage", garbage());
        } else if (dice < 55) {
            return text("deep-nesting", deep());
        } else if (dice < 65) {
            return text("long-number", longNumber());
        } else if (dice < 71) {
            return text("huge-string", base("state_request", "\"" + repeat('x', 50_000 + random.nextInt(900_000)) + "\""));
        } else if (dice < 73) {
            return oversized();
        } else if (dice < 80) {
            return binary();
        } else if (dice < 90) {
            return text("control-chars", controlChars());
        } else {
            return fragmented();
        }
    }

    private Frame text(String kind, String json) {
        return new Frame(kind, 1, json.getBytes(StandardCharsets.UTF_8), 1);
    }

    /** A valid-looking frame of a random type with random fields, then one to three mutations. */
    private String mutated() {
        String type = TYPES.get(random.nextInt(TYPES.size()));
        StringBuilder fields = new StringBuilder();
        int count = 1 + random.nextInt(5);
        for (int i = 0; i < count; i++) {
            String[] field = FIELDS[random.nextInt(FIELDS.length)];
            fields.append(",\"").append(field[0]).append("\":").append(random.nextInt(3) == 0 ? value() : field[1]);
        }
        String frame = "{\"type\":" + jsonString(type) + ",\"sender\":\"" + sender + "\",\"timestamp\":" + timestamp()
                + fields + "}";
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            frame = mutate(frame);
        }
        return frame;
    }

    private String mutate(String frame) {
        return switch (random.nextInt(7)) {
            case 0 -> frame.replaceFirst("\"type\":\"[^\"]*\"", Matcher.quoteReplacement("\"type\":" + value()));
            case 1 -> frame.replace("\"timestamp\":", "\"timestamp\":" + value() + ",\"x_ts\":");
            case 2 -> frame.substring(0, random.nextInt(Math.max(1, frame.length()))); // truncated
            case 3 -> frame.replace("\"sender\":\"" + sender + "\"", "\"sender\":" + value());
            case 4 -> "{" + "\"type\":\"chat\",\"dup\":1,\"dup\":" + value() + "," + frame.substring(Math.min(1, frame.length())); // an earlier truncation may have left nothing
            case 5 -> {
                int at = random.nextInt(frame.length() + 1);
                yield frame.substring(0, at) + (char) random.nextInt(128) + frame.substring(at);
            }
            default -> frame.replaceFirst("\\}$", Matcher.quoteReplacement(",\"" + Strings.randomText(random, 12) + "\":" + value() + "}"));
        };
    }

    /** A JSON value of any shape, including edge cases. */
    private String value() {
        return switch (random.nextInt(16)) {
            case 0 -> "null";
            case 1 -> "true";
            case 2 -> "[]";
            case 3 -> "{}";
            case 4 -> "-1";
            case 5 -> "1e308";
            case 6 -> "-0.0";
            case 7 -> "9223372036854775808";
            case 8 -> "1.7976931348623157e309";
            case 9 -> digits(20 + random.nextInt(2000));
            case 10 -> jsonString(Strings.randomText(random, 1 + random.nextInt(40)));
            case 11 -> "[" + value() + "," + value() + "]";
            case 12 -> "{\"a\":" + value() + "}";
            case 13 -> "\"\\u0000\\n\\r\\u001b[31m\"";
            case 14 -> "\"" + repeat('y', 1 + random.nextInt(5000)) + "\"";
            default -> Integer.toString(random.nextInt());
        };
    }

    private String garbage() {
        return switch (random.nextInt(6)) {
            case 0 -> Strings.randomText(random, 1 + random.nextInt(300));
            case 1 -> "[" + value() + "]";
            case 2 -> value();
            case 3 -> "{\"type\":\"chat\",\"payload\":\"unterminated";
            case 4 -> "{{{{}}}}";
            default -> "NaN";
        };
    }

    private String deep() {
        int depth = 10 + random.nextInt(random.nextBoolean() ? 100 : 20_000);
        String open = random.nextBoolean() ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        boolean balanced = random.nextInt(4) != 0;
        return base(random.nextBoolean() ? "chat" : "who_request",
                repeat(open, depth) + "1" + (balanced ? repeat(close, depth) : ""));
    }

    private String longNumber() {
        int length = switch (random.nextInt(4)) {
            case 0 -> 19 + random.nextInt(30);
            case 1 -> 1000 + random.nextInt(3400);
            case 2 -> 4290 + random.nextInt(20);
            default -> 4300 + random.nextInt(100_000);
        };
        String number = (random.nextBoolean() ? "-" : "") + digits(length)
                + (random.nextInt(3) == 0 ? "." + digits(1 + random.nextInt(2000)) : "")
                + (random.nextInt(4) == 0 ? "e" + digits(1 + random.nextInt(6)) : "");
        String field = List.of("timestamp", "limit", "since_seq", "seq", "expected_version", "lease_seconds", "payload")
                .get(random.nextInt(7));
        String type = List.of("chat", "history_request", "claim", "heartbeat", "ack", "who_request").get(random.nextInt(6));
        return "{\"type\":\"" + type + "\",\"sender\":\"" + sender + "\",\"target\":\"fuzz/monitor\",\"" + field + "\":" + number + "}";
    }

    /** Over the 1 MiB frame limit: text or binary, whole or in fragments. */
    private Frame oversized() {
        int size = 1024 * 1024 + 1 + random.nextInt(3 * 1024 * 1024);
        byte[] bytes = base("chat", "\"" + repeat('z', size) + "\"").getBytes(StandardCharsets.UTF_8);
        return new Frame("oversized", random.nextBoolean() ? 1 : 2, bytes, random.nextBoolean() ? 1 : 2 + random.nextInt(8));
    }

    private Frame binary() {
        if (random.nextBoolean()) {
            byte[] bytes = new byte[1 + random.nextInt(2000)];
            random.nextBytes(bytes);
            return new Frame("binary", 2, bytes, 1);
        }
        return new Frame("binary", 2, mutated().getBytes(StandardCharsets.UTF_8), 1);
    }

    private String controlChars() {
        StringBuilder name = new StringBuilder(sender);
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
            name.append(Strings.escape((char) random.nextInt(0x20)));
        }
        String forged = "\\n[2026-01-01T00:00:00] SEVERE forged line \\u0000\\u007f\\u2028";
        return switch (random.nextInt(3)) {
            case 0 -> "{\"type\":\"heartbeat\",\"sender\":\"" + name + "\",\"target\":\"System\",\"payload\":\"online\"}";
            case 1 -> "{\"type\":\"chat\",\"sender\":\"" + sender + "\",\"target\":\"fuzz/monitor" + forged + "\",\"payload\":\"" + forged + "\"}";
            default -> "{\"type\":\"" + forged + "\",\"sender\":\"" + sender + "\"}";
        };
    }

    private Frame fragmented() {
        Frame inner = text("fragmented", mutated());
        return new Frame("fragmented", random.nextInt(4) == 0 ? 2 : 1, inner.bytes(), 2 + random.nextInt(6));
    }

    private String base(String type, String payloadJson) {
        return "{\"type\":\"" + type + "\",\"sender\":\"" + sender + "\",\"target\":\"fuzz/nobody\",\"payload\":" + payloadJson + "}";
    }

    private String timestamp() {
        return Long.toString(System.currentTimeMillis() / 1000);
    }

    private String digits(int length) {
        StringBuilder b = new StringBuilder(length);
        b.append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < length; i++) {
            b.append((char) ('0' + random.nextInt(10)));
        }
        return b.toString();
    }

    private static String jsonString(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            b.append(c == '"' || c == '\\' || c < 0x20 ? Strings.escape(c) : String.valueOf(c));
        }
        return b.append('"').toString();
    }

    private static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

    private static String repeat(String s, int n) {
        return s.repeat(n);
    }
}
