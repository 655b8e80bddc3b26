package org.switchboard.ops;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.Objects;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

/** At a JVM exit, gives the handlers of Payara Micro's "STOPPED" line a formatter that needs no HK2. */
public final class FinalStopLine {

    /**
     * The logger Payara Micro's own shutdown hook logs "Payara Micro STOPPED." to, after it has
     * disposed its HK2 runtime ({@code fish.payara.micro.impl.PayaraMicroImpl}, 6.2025.10). Payara's
     * formatters ask HK2 for the product name on every record, so that line failed with "Error in
     * formatting Logrecord … ServiceLocatorImpl has been shut down" whenever a Payara formatter was
     * still attached (a race with the JDK's own logging reset hook).
     */
    public static final String PAYARA_MICRO_LOGGER = "PayaraMicro";

    private final String loggerName;
    private final LineFormatter formatter = new LineFormatter();
    private volatile boolean engaged;

    /** The seam for Payara Micro's logger. */
    public static FinalStopLine payaraMicro() {
        return new FinalStopLine(PAYARA_MICRO_LOGGER);
    }

    FinalStopLine(String loggerName) {
        this.loggerName = Objects.requireNonNull(loggerName);
    }

    /**
     * Run at deployment: rehearses the swap and the formatter on a throwaway logger, so that neither
     * needs a class the application's loader would have to load during the exit (it refuses them once
     * the undeploy has begun), and engages only when the logger already exists, i.e. on Payara Micro.
     *
     * @return whether the seam engaged
     */
    public boolean prepare() {
        Logger rehearsal = Logger.getAnonymousLogger();
        rehearsal.setUseParentHandlers(false);
        StreamHandler scratch = new StreamHandler(OutputStream.nullOutputStream(), new SimpleFormatter());
        rehearsal.addHandler(scratch);
        swapAlong(rehearsal);
        swapAlong(rehearsal); // the second pass takes the already-swapped branch
        LogRecord record = new LogRecord(Level.INFO, "rehearsal {0}");
        record.setParameters(new Object[] {1});
        record.setLoggerName(loggerName);
        record.setThrown(new IllegalStateException("rehearsal"));
        formatter.format(record);
        record.setThrown(null);
        formatter.format(record);
        rehearsal.removeHandler(scratch);
        // getLoggerNames, not getLogger: some log managers (JBoss) create the logger they are asked for
        engaged = Collections.list(LogManager.getLogManager().getLoggerNames()).contains(loggerName);
        return engaged;
    }

    /** Whether {@link #prepare()} found the logger. */
    public boolean engaged() {
        return engaged;
    }

    /**
     * Called when the application is undeployed: on a JVM exit (and only when engaged) every handler
     * that would format the logger's records gets the line formatter; a plain undeploy leaves logging
     * as it is, since the server and its formatters live on.
     *
     * @return how many handlers got the line formatter (0 when nothing changed)
     */
    public int undeployed(boolean jvmExiting) {
        if (!jvmExiting || !engaged) {
            return 0;
        }
        Logger logger = LogManager.getLogManager().getLogger(loggerName);
        return logger == null ? 0 : swapAlong(logger);
    }

    /** Swaps the formatter of the handlers a record logged to {@code logger} reaches, as JUL walks them. */
    private int swapAlong(Logger logger) {
        int swapped = 0;
        for (Logger l = logger; l != null; l = l.getUseParentHandlers() ? l.getParent() : null) {
            Handler[] handlers = l.getHandlers();
            for (int i = 0; i < handlers.length; i++) {
                Handler h = handlers[i];
                if (h.getFormatter() instanceof LineFormatter) {
                    continue;
                }
                try {
                    h.setFormatter(formatter);
                    swapped++;
                } catch (RuntimeException refused) {
                    // a handler that refuses (security manager) keeps its formatter; the others still swap
                }
            }
        }
        return swapped;
    }

    /**
     * The shape of Payara Micro's one-line ODL records (timestamp, level, logger, thread, millis,
     * level value, message), so the log reads and parses as before; only the product name field stays
     * empty, which is what needed HK2. Built from JDK classes only and rehearsed by {@link #prepare()}.
     */
    static final class LineFormatter extends Formatter {

        private final DateTimeFormatter time =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSZ").withZone(ZoneId.systemDefault());

        @Override
        public String format(LogRecord record) {
            // StringBuilder rather than '+': a string concatenation links a call site the first time it
            // runs, which may need the class loader that is already closed at the exit
            StringBuilder line = new StringBuilder(160);
            line.append('[').append(time.format(record.getInstant())).append("] [] [")
                    .append(record.getLevel().getName()).append("] [] [")
                    .append(record.getLoggerName() == null ? "" : record.getLoggerName())
                    .append("] [tid: _ThreadID=").append(record.getLongThreadID())
                    .append(" _ThreadName=").append(Thread.currentThread().getName())
                    .append("] [timeMillis: ").append(record.getMillis())
                    .append("] [levelValue: ").append(record.getLevel().intValue()).append("] ");
            String message = formatMessage(record);
            Throwable thrown = record.getThrown();
            if (thrown == null && message.indexOf('\n') < 0) {
                line.append(message);
            } else {
                line.append("[[\n  ").append(message).append('\n');
                if (thrown != null) {
                    StringWriter trace = new StringWriter();
                    thrown.printStackTrace(new PrintWriter(trace));
                    line.append(trace);
                }
                line.append("]]");
            }
            return line.append("\n\n").toString();
        }
    }
}
