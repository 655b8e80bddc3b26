package org.switchboard.synapse.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.idempotency.HubReply;

class DarkSeatWatchTest {

    final DarkSeatWatch watch = new DarkSeatWatch(30);
    final Set<String> waiters = new HashSet<>();

    List<HubReply> poll(Map<String, List<String>> claims, Map<String, List<String>> tasks, double now) {
        return watch.poll(claims, tasks, waiters::contains, now);
    }

    @Test
    void alertsOncePerEpisodeAfterThirtySecondsOfContinuousDarkness() {
        Map<String, List<String>> claims = Map.of("proj/bob", List.of("parser-split"));
        Map<String, List<String>> tasks = Map.of("proj/bob", List.of("T-9", "T-7"), "proj/carol", List.of("T-1"));
        waiters.add("proj/carol");
        assertEquals(List.of(), poll(claims, tasks, 0));
        assertEquals(List.of(), poll(claims, tasks, 25));
        List<HubReply> alerts = poll(claims, tasks, 30.004);
        assertEquals(1, alerts.size());
        HubReply a = alerts.get(0);
        assertEquals("dark_seat_alert", a.type());
        assertEquals(true, a.broadcast());
        assertEquals("Dark seat: proj/bob owns live work without a fresh -rx waiter.", a.payload());
        assertEquals("[\"T-7\",\"T-9\"]", a.fields().getJsonArray("tasks").toString());
        assertEquals("[\"parser-split\"]", a.fields().getJsonArray("claims").toString());
        assertEquals(30.004, a.fields().getJsonNumber("missing_for_seconds").doubleValue(), 1e-9);
        assertEquals("arm a permanent waiter: synapse arm --name=proj/bob --for=proj/bob --directed-only",
                a.fields().getString("remedy"));
        assertEquals(List.of(), poll(claims, tasks, 60), "one alert per episode");
        waiters.add("proj/bob");
        assertEquals(List.of(), poll(claims, tasks, 65), "waiter back: episode ends");
        waiters.remove("proj/bob");
        assertEquals(List.of(), poll(claims, tasks, 70), "relapse restarts the 30 s clock");
        assertEquals(1, poll(claims, tasks, 100).size(), "a relapse alerts again");
    }

    @Test
    void brokenDarknessResetsTheClock() {
        Map<String, List<String>> claims = Map.of("x", List.of("t"));
        poll(claims, Map.of(), 0);
        poll(Map.of(), Map.of(), 20); // owns nothing: episode over
        assertEquals(List.of(), poll(claims, Map.of(), 31));
        assertEquals(1, poll(claims, Map.of(), 61).size());
    }
}
