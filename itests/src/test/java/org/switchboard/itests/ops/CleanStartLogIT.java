package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.switchboard.itests.redsyn.Relay.obj;
import static org.switchboard.itests.redsyn.Relay.request;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.switchboard.itests.redsyn.Relay;
import org.switchboard.itests.redsyn.RedsynClient;
import org.switchboard.itests.redsyn.RedsynClient.Reply;

/**
 * An operator reads stack traces and SEVERE lines as failures: a fresh start, a restart on the same
 * database, and the first work items through the broker (webhook deliveries, before and after the
 * restart) leave none in the hub's log, nor a WARNING that carries an exception.
 */
class CleanStartLogIT {

    private static final String CLI = "acme/general/joel/cli";
    private static final String HOOKED = "acme/general/joel/hooked";
    /** A Payara log record starts with its timestamp in brackets. */
    private static final Pattern RECORD_START = Pattern.compile("^\\[\\d{4}-\\d{2}-\\d{2}T");
    private static final Pattern LEVEL = Pattern.compile("\\[levelValue: (\\d+)]");
    /** What the hub logged before the schema scripts and the destination fix, recognised by name. */
    private static final List<String> KNOWN_BAD = List.of("EclipseLink-", "already exists", "RAR8000", "RAR7097");

    @Test
    void aFreshStartARestartAndTheFirstWorkItemsLogNoStackTrace() throws Exception {
        LinkedBlockingQueue<String> deliveries = new LinkedBlockingQueue<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            try (exchange) {
                deliveries.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        receiver.start();
        Relay relay = Relay.start("REDSYN_WEBHOOK_ALLOW_LOOPBACK_HTTP", "true");
        Path log = relay.hub.logFile();
        try {
            RedsynClient c = relay.client;
            String joel = relay.personWithNode("joel@acme.test", "enterprise");
            assertEquals(201, c.post("/v1/orgs", joel, obj("handle", "acme", "me", "joel")).status());
            assertEquals(201, c.put("/v1/agents/" + CLI, joel, obj("listening", true)).status());
            assertEquals(201, c.put("/v1/agents/" + HOOKED, joel, obj("listening", true)).status());
            String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            Reply hook = c.put("/v1/agents/" + HOOKED + "/webhook", joel, obj("url", url));
            assertTrue(hook.status() == 201 || hook.status() == 200, hook.toString());

            send(c, joel, "first work item");
            assertTrue(deliveries.poll(60, TimeUnit.SECONDS) != null, "the webhook was not called before the restart");

            relay.hub.restart();
            send(c, joel, "after the restart");
            assertTrue(deliveries.poll(60, TimeUnit.SECONDS) != null, "the webhook was not called after the restart");
        } finally {
            relay.stop();
            receiver.stop(0);
        }
        List<String> problems = problems(log);
        assertTrue(problems.isEmpty(), problems.size() + " log records an operator would read as failures in " + log
                + ":\n" + String.join("\n----\n", problems.subList(0, Math.min(5, problems.size()))));
    }

    private static void send(RedsynClient c, String token, String text) {
        Reply r = c.post("/v1/messages", token, request(CLI, HOOKED, text));
        assertEquals(201, r.status(), r.toString());
    }

    /** Each SEVERE record, each WARNING that carries an exception, and each stack trace, abbreviated. */
    static List<String> problems(Path log) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> record = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (RECORD_START.matcher(line).find() && !record.isEmpty()) {
                judge(record, problems);
                record.clear();
            }
            record.add(line);
        }
        judge(record, problems);
        return problems;
    }

    private static void judge(List<String> record, List<String> problems) {
        if (record.isEmpty()) {
            return;
        }
        String text = String.join("\n", record);
        Matcher level = LEVEL.matcher(text);
        int value = level.find() ? Integer.parseInt(level.group(1)) : 0;
        boolean trace = record.stream().anyMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by: "));
        boolean severe = value >= 1000;
        boolean warnedException = value >= 900 && text.contains("Exception");
        boolean knownBad = value >= 900 && KNOWN_BAD.stream().anyMatch(text::contains);
        if (trace || severe || warnedException || knownBad) {
            problems.add(text.length() > 1500 ? text.substring(0, 1500) + " ..." : text);
        }
    }
}
