package org.switchboard.itests.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates hostile REDSYN requests from a seeded {@link Random}: methods × paths × bodies × headers,
 * with a valid token, a wrong one, the admin token or none. Each request names its body class.
 */
final class RedsynRequests {

    /** One request: method, path under {@code /redsyn}, body text (null: none), header pairs, classes. */
    record Request(String method, String path, String body, List<String> headers, String bodyKind, String tokenKind) {

        String describe() {
            String shown = body == null ? "-" : body.length() > 120 ? body.substring(0, 120) + "...(" + body.length() + " chars)" : body;
            return method + " " + path + " token=" + tokenKind + " body=" + bodyKind + " " + headers + " " + Strings.printable(shown);
        }
    }

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND");

    private final Random random;
    private final String token;
    private final String adminToken;
    private final List<String> routes = new ArrayList<>();

    RedsynRequests(Random random, String token, String adminToken) {
        this.random = random;
        this.token = token;
        this.adminToken = adminToken;
        String agent = "/v1/agents/fuzz/general/joel/box";
        String inbox = "/v1/inbox/fuzz/general/joel/box";
        // "METHOD path": the method the path is served with (or a plausible one for unknown paths)
        routes.addAll(List.of("POST /v1/messages", "GET /v1/messages/msg_0000/files", "POST /v1/messages/msg_0000/cancel",
                "GET " + inbox, "GET " + inbox + "?wait=0", "GET " + inbox + "?wait=1&lease=1", "GET " + inbox + "?lease=-5",
                "GET " + inbox + "?wait=abc&peek=1", "GET " + inbox + "?wait=99999999999999999999", "GET " + inbox + "?reply_to=%00",
                "POST " + inbox + "/ack", "PUT " + agent, "PUT " + agent + "/webhook", "DELETE " + agent + "/webhook",
                "POST /v1/nodes", "PUT /v1/nodes/key", "GET /v1/directory", "GET /v1/directory?q=%ff%fe", "GET /v1/topics",
                "GET /v1/links", "GET /v1/me", "POST /v1/orgs", "POST /v1/orgs/fuzz/teams", "POST /v1/orgs/fuzz/teams/general/members",
                "POST /v1/orgs/fuzz/invites", "POST /v1/orgs/fuzz/join", "GET /v1/orgs/fuzz/usage", "POST /v1/orgs/fuzz/links",
                "PUT /v1/orgs/fuzz/links/other/expose", "PUT /v1/orgs/fuzz/links/other/rules", "POST /v1/orgs/fuzz/links/other/revoke",
                "PUT /v1/subscriptions", "POST /v1/subscriptions/remove", "GET /v1/threads/msg_0000", "POST /admin/persons",
                "POST /admin/persons/1/nodes", "PUT /admin/persons/1/plan", "PUT /admin/persons/99999999999999999999999/plan",
                "GET /v1/nope", "POST /v2/messages", "GET /", "GET ", "GET /v1", "GET /v1/", "POST /v1/../admin/persons",
                "POST /v1/%2e%2e/admin/persons", "GET /v1/messages/%00", "GET /v1/inbox/a/b", "PUT /v1/agents/a/b/c/d/e/f",
                "POST /v1/messages;jsessionid=1", "GET /v1/orgs/%E2%80%AE/usage", "GET /v1/threads/" + "x".repeat(5000),
                "GET /v1/me?" + "a=1&".repeat(500)));
    }

    Request next() {
        String route = routes.get(random.nextInt(routes.size()));
        int space = route.indexOf(' ');
        String path = route.substring(space + 1);
        // mostly the route's own method, so that bodies reach the resources; otherwise any method
        String method = random.nextInt(10) < 6 ? route.substring(0, space) : METHODS.get(random.nextInt(METHODS.size()));
        String[] body = method.equals("GET") || method.equals("HEAD") ? (random.nextInt(5) == 0 ? body() : new String[] {"none", null})
                : random.nextInt(8) == 0 ? new String[] {"none", null} : body();
        List<String> headers = new ArrayList<>();
        String tokenKind;
        switch (random.nextInt(6)) {
            case 0, 1, 2 -> {
                tokenKind = "valid";
                headers.addAll(List.of("Authorization", "Bearer " + token));
            }
            case 3 -> {
                tokenKind = "admin";
                headers.addAll(List.of("Authorization", "Bearer " + adminToken));
            }
            case 4 -> {
                tokenKind = "wrong";
                headers.addAll(List.of("Authorization", random.nextBoolean() ? "Bearer nope" : "Basic Zm9vOmJhcg=="));
            }
            default -> tokenKind = "none";
        }
        if (body[1] != null || random.nextBoolean()) {
            headers.addAll(List.of("Content-Type", List.of("application/json", "application/json", "application/json; charset=ISO-8859-1",
                    "text/plain", "application/xml", "multipart/form-data; boundary=x", "a/b/c", "application/x-www-form-urlencoded")
                    .get(random.nextInt(8))));
        }
        if (random.nextInt(3) == 0) {
            headers.addAll(List.of("Accept", List.of("text/html", "application/xml", "*/*", "application/json", "image/png;q=0.1")
                    .get(random.nextInt(5))));
        }
        if (random.nextInt(4) == 0) {
            headers.addAll(List.of("Redsyn-Version", List.of("2024-01-01", "garbage", "9999-99-99", "", "2026-01-01")
                    .get(random.nextInt(5))));
        }
        if (random.nextInt(6) == 0) {
            headers.addAll(List.of("Idempotency-Key", Strings.randomText(random, 8).replaceAll("[^ -~]", "?")));
        }
        return new Request(method, path, body[1], headers, body[0], tokenKind);
    }

    /** {class, text}. */
    private String[] body() {
        return switch (random.nextInt(10)) {
            case 0, 1 -> new String[] {"envelope", envelope()};
            case 2 -> new String[] {"non-object", List.of("null", "[]", "\"x\"", "42", "true", "[{}]", "1e999").get(random.nextInt(7))};
            case 3 -> new String[] {"deep-nesting", nested(500 + random.nextInt(random.nextBoolean() ? 600 : 6000))};
            case 4 -> new String[] {"long-number", "{\"v\":" + digits(1000 + random.nextInt(4000)) + ",\"kind\":\"request\"}"};
            case 5 -> new String[] {"garbage", random.nextBoolean() ? Strings.randomText(random, 1 + random.nextInt(200))
                    : "{\"kind\":\"request\",\"to\":"};
            case 6 -> new String[] {"oversized", "{\"v\":1,\"kind\":\"request\",\"from\":\"fuzz/general/joel/cli\",\"to\":\"box\","
                    + "\"body\":{\"type\":\"text/plain\",\"text\":\"" + "q".repeat(60_000 + random.nextInt(2_000_000)) + "\"}}"};
            case 7 -> new String[] {"empty", ""};
            case 8 -> new String[] {"fields", fields()};
            default -> new String[] {"mutated-envelope", mutate(envelope())};
        };
    }

    private String envelope() {
        return "{\"v\":1,\"kind\":\"" + List.of("request", "reply", "event", "bogus").get(random.nextInt(4))
                + "\",\"from\":\"fuzz/general/joel/cli\",\"to\":\"" + List.of("box", "fuzz/general/joel/box", "nobody", "../x", "")
                .get(random.nextInt(5)) + "\",\"body\":{\"type\":\"text/plain\",\"text\":\"fuzz\"}}";
    }

    private String fields() {
        List<String> names = List.of("handle", "me", "name", "email", "plan", "listening", "ids", "url", "secret", "topic",
                "topics", "lease", "key", "public_key", "team", "user", "invite", "code", "rules", "expose", "v", "kind", "to");
        StringBuilder b = new StringBuilder("{");
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('"').append(names.get(random.nextInt(names.size()))).append("\":").append(value());
        }
        return b.append('}').toString();
    }

    private String value() {
        return switch (random.nextInt(10)) {
            case 0 -> "null";
            case 1 -> "true";
            case 2 -> "[\"a\",1,null]";
            case 3 -> "{}";
            case 4 -> "-1";
            case 5 -> digits(20 + random.nextInt(30));
            case 6 -> "\"http://127.0.0.1:1/hook\"";
            case 7 -> "\"" + "w".repeat(random.nextInt(3000)) + "\"";
            case 8 -> "\"\\u0000\\n\\u001b\"";
            default -> "\"fuzz\"";
        };
    }

    private String mutate(String text) {
        int at = random.nextInt(text.length() + 1);
        return switch (random.nextInt(3)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + value() + text.substring(at);
            default -> text.replace("\"v\":1", "\"v\":" + value());
        };
    }

    private String nested(int depth) {
        return "{\"v\":1,\"kind\":\"request\",\"body\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    }

    private String digits(int length) {
        StringBuilder b = new StringBuilder(length).append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < length; i++) {
            b.append((char) ('0' + random.nextInt(10)));
        }
        return b.toString();
    }
}
