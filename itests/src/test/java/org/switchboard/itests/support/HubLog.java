package org.switchboard.itests.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Reads what a hub logged from a byte offset on, and finds the stack traces in it (the fuzz ITs' log scan). */
public final class HubLog {

    /** A stack frame line: {@code <whitespace>at some.Class.method(Source.java:12)}. */
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s+at [\\w$]+(\\.[\\w$<>]+)+\\(.*\\)\\s*$");
    /** The tail of a trace: {@code ... 12 more} or {@code ... 12 common frames omitted}. */
    private static final Pattern CONTINUATION = Pattern.compile("^\\s+\\.\\.\\. \\d+ (more|common frames omitted)\\s*$");

    private HubLog() {
    }

    /** The log's size now: the offset to read from after the step under test. */
    public static long size(Path log) throws IOException {
        return Files.size(log);
    }

    /** What was logged from byte {@code from} on. */
    public static String since(Path log, long from) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            file.seek(from);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /**
     * Each stack trace in {@code text}, once, as {@code "<the line heading it> / <its first frame>"}: frames,
     * {@code Caused by:} lines and {@code ... n more} lines that follow a frame belong to the same trace.
     */
    public static List<String> stackTraces(String text) {
        List<String> traces = new ArrayList<>();
        String head = null;
        boolean inTrace = false;
        for (String line : text.split("\n")) {
            if (inTrace && (line.startsWith("Caused by:") || CONTINUATION.matcher(line).matches())) {
                continue; // the same trace goes on
            }
            if (STACK_FRAME.matcher(line).matches()) {
                if (!inTrace) {
                    traces.add((head == null ? "(no heading line)" : head.trim()) + " / " + line.trim());
                }
                inTrace = true;
            } else {
                inTrace = false;
                if (!line.isBlank()) {
                    head = line;
                }
            }
        }
        return traces;
    }
}
