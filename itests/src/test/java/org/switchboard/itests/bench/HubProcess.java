package org.switchboard.itests.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.switchboard.itests.support.HubServer;

/**
 * What the benchmarks read about a hub process and the machine (its CPU time, the load average, jcmd), and
 * the hub settings they pass on from {@code bench.hub-env}.
 */
final class HubProcess {

    private HubProcess() {
    }

    /** Adds the {@code bench.hub-env} settings ({@code KEY=value,KEY=value}) to a started hub's {@code env}; returns it. */
    static Map<String, String> withBenchHubEnv(Map<String, String> env) {
        for (String setting : System.getProperty("bench.hub-env", "").split(",")) {
            int eq = setting.indexOf('=');
            if (eq > 0) {
                env.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
            }
        }
        return env;
    }

    /** User plus system CPU time of a process (0 when unknown or no process). */
    static long cpuNanos(long pid) {
        if (pid <= 0) {
            return 0;
        }
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    /**
     * CPU clock ticks (1/100 s on Linux) of each group of the process's threads, a group being a
     * thread name with its digits replaced by {@code #} (Linux keeps 15 characters of a name).
     */
    static java.util.Map<String, Long> threadTicks(long pid) {
        java.util.Map<String, Long> ticks = new java.util.TreeMap<>();
        if (pid <= 0) {
            return ticks;
        }
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#");
                    String[] f = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (IOException e) {
                    // the thread ended
                }
            }
        } catch (IOException e) {
            // no such process: no figures
        }
        return ticks;
    }

    /** Cores the JIT compiler threads used between two {@link #threadTicks} readings {@code nanos} apart. */
    static double compilerCores(java.util.Map<String, Long> before, java.util.Map<String, Long> after, long nanos) {
        long ticks = 0;
        for (var e : after.entrySet()) {
            if (e.getKey().contains("CompilerThre")) {
                ticks += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
        }
        return ticks * 1e7 / nanos; // 1 tick = 10 ms
    }

    /** The machine's load average line, printed beside every figure because the machine is shared. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * Runs one jcmd command against the process (JFR start/stop) and waits for it. Refuses to start a
     * recording in a hub that maps a class-data sharing archive: JDK 17 crashed such a JVM (SIGSEGV) at the
     * next class it loaded from the archive (benchmarks-log.md, "Flight Recorder").
     */
    static void jcmd(long pid, String... command) throws Exception {
        Optional<Path> archive = HubServer.cdsArchive();
        if (command.length > 0 && command[0].equals("JFR.start") && archive.isPresent()
                && Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains(archive.get().toString())) {
            throw new IllegalStateException("the hub maps a class-data sharing archive, and JFR.start crashed such hubs;"
                    + " run the benchmark with -Dhub.cds=false to profile it");
        }
        List<String> line = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        new ProcessBuilder(line).inheritIO().start().waitFor();
    }

    /** Runs one jcmd command against the process and returns its output's lines (a class histogram). */
    static List<String> jcmdLines(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        List<String> lines = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines().toList();
        process.waitFor();
        return lines;
    }
}
