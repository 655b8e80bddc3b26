package org.switchboard.itests.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the benchmarks read about a hub process and the machine: its CPU time, the load average, jcmd. */
final class HubProcess {

    private HubProcess() {
    }

    /** User plus system CPU time of a process (0 when unknown or no process). */
    static long cpuNanos(long pid) {
        if (pid <= 0) {
            return 0;
        }
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    /** The machine's load average line, printed beside every figure because the machine is shared. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Runs one jcmd command against the process (JFR start/stop) and waits for it. */
    static void jcmd(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        new ProcessBuilder(line).inheritIO().start().waitFor();
    }
}
