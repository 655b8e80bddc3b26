package org.switchboard.itests.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.switchboard.itests.support.HubServer;

/**
 * The journal's counters from {@code /metrics}: events, commits, compaction runs, time and CPU time so far, and the
 * writer's time committing and lingering, the appends' summed wait from append to commit, the H2
 * file's chunks at the last count, and how many commits took longer than 10, 20 and 50 ms.
 */
record JournalCounters(double events, double commits, double compactionRuns, double compactionSeconds, double compactionCpuSeconds,
                       double commitSeconds, double lingerSeconds, double appends, double appendWaitSeconds,
                       double fileChunks, double commitsCounted, double within10ms, double within20ms, double within50ms) {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final String BUCKETS = "synapse_journal_commit_duration_seconds_bucket";

    static JournalCounters read(HubServer hub) throws Exception {
        String text = CLIENT.send(HttpRequest.newBuilder(hub.http("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return new JournalCounters(metric(text, "synapse_journal_last_seq"), metric(text, "synapse_journal_commits_total"),
                metric(text, "synapse_journal_compactions_total"), metric(text, "synapse_journal_compaction_seconds_total"),
                metric(text, "synapse_journal_compaction_cpu_seconds_total"),
                metric(text, "synapse_journal_commit_seconds_total"), metric(text, "synapse_journal_linger_seconds_total"),
                metric(text, "synapse_journal_appends_total"), metric(text, "synapse_journal_append_wait_seconds_total"),
                metric(text, "synapse_journal_file_chunks"), metric(text, BUCKETS + "{le=\"+Inf\"}"),
                metric(text, BUCKETS + "{le=\"0.01\"}"), metric(text, BUCKETS + "{le=\"0.02\"}"),
                metric(text, BUCKETS + "{le=\"0.05\"}"));
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
        double appends = this.appends - before.appends;
        double counted = commitsCounted - before.commitsCounted; // the duration histogram's commits
        return String.format("%.0f events in %.0f commits (%.1f per commit), compaction %.2f s in %.0f runs (%.2f s of it on the CPU);"
                        + " per commit %.3f ms committing, %.3f ms lingering; %.0f appends, %.3f ms each from append to commit; %.0f file chunks;"
                        + " commits over 10 / 20 / 50 ms: %.0f / %.0f / %.0f",
                events, commits, events / commits, compactionSeconds - before.compactionSeconds, compactionRuns - before.compactionRuns,
                compactionCpuSeconds - before.compactionCpuSeconds,
                (commitSeconds - before.commitSeconds) * 1e3 / commits, (lingerSeconds - before.lingerSeconds) * 1e3 / commits,
                appends, (appendWaitSeconds - before.appendWaitSeconds) * 1e3 / appends, fileChunks,
                counted - (within10ms - before.within10ms), counted - (within20ms - before.within20ms),
                counted - (within50ms - before.within50ms));
    }
}
