package org.switchboard.itests.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.switchboard.itests.support.HubServer;

/** The journal's counters from {@code /metrics}: events, commits, compaction runs and time so far. */
record JournalCounters(double events, double commits, double compactionRuns, double compactionSeconds) {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    static JournalCounters read(HubServer hub) throws Exception {
        String text = CLIENT.send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return new JournalCounters(metric(text, "synapse_journal_last_seq"), metric(text, "synapse_journal_commits_total"),
                metric(text, "synapse_journal_compactions_total"), metric(text, "synapse_journal_compaction_seconds_total"));
    }

    private static double metric(String text, String name) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        return Double.NaN;
    }

    String since(JournalCounters before) {
        double events = this.events - before.events;
        double commits = this.commits - before.commits;
        return String.format("%.0f events in %.0f commits (%.1f per commit), compaction %.2f s in %.0f runs", events, commits,
                events / commits, compactionSeconds - before.compactionSeconds, compactionRuns - before.compactionRuns);
    }
}
