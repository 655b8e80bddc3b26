package org.switchboard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FinalStopLineTest {

    /** How CleanStartLogIT recognises a record and its level in a hub log. */
    private static final Pattern RECORD_START = Pattern.compile("^\\[\\d{4}-\\d{2}-\\d{2}T");
    private static final Pattern LEVEL_800 = Pattern.compile("\\[levelValue: 800] Payara Micro STOPPED\\.");

    /** A unique name per test, so the JVM-wide log manager holds nothing another test set up. */
    private final String name = "finalstopline." + UUID.randomUUID();
    /** Held here: the log manager keeps loggers only weakly. */
    private final Logger logger = Logger.getLogger(name);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final StreamHandler handler = new StreamHandler(out, new Hk2LikeFormatter());

    FinalStopLineTest() {
        logger.setUseParentHandlers(false); // the walk must stay away from the test JVM's root handlers
        handler.setErrorManager(new ErrorManager() {
            @Override
            public synchronized void error(String msg, Exception ex, int code) {
                errors.add(code + " " + ex);
            }
        });
    }

    @AfterEach
    void detach() {
        logger.removeHandler(handler);
    }

    @Test
    void swapsOnAJvmExitButNotOnAPlainUndeploy() {
        logger.addHandler(handler);
        FinalStopLine seam = new FinalStopLine(name);
        assertTrue(seam.prepare());

        assertEquals(0, seam.undeployed(false));
        assertInstanceOf(Hk2LikeFormatter.class, handler.getFormatter(), "a plain undeploy changed the formatter");

        assertEquals(1, seam.undeployed(true));
        assertInstanceOf(FinalStopLine.LineFormatter.class, handler.getFormatter());
    }

    @Test
    void aFormatterThatNeedsTheDisposedRuntimeFormatsTheLastLineAfterTheSwap() {
        logger.addHandler(handler);
        FinalStopLine seam = new FinalStopLine(name);
        seam.prepare();

        logger.info("Payara Micro STOPPED.");
        handler.flush();
        assertEquals(1, errors.size(), "the simulated formatter should fail before the swap: " + errors);
        assertEquals(0, out.size());

        seam.undeployed(true);
        logger.info("Payara Micro STOPPED.");
        handler.flush();
        String line = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, errors.size(), "formatting failed after the swap: " + errors);
        assertTrue(RECORD_START.matcher(line).find(), line);
        assertTrue(LEVEL_800.matcher(line).find(), line);
        assertTrue(line.contains("[INFO] [] [" + name + "] [tid: _ThreadID="), line);
        assertTrue(line.endsWith("STOPPED.\n\n"), line);
    }

    @Test
    void withoutTheLoggerAtDeploymentItStaysDisengagedEvenIfTheLoggerAppearsLater() {
        String absent = "finalstopline.absent." + UUID.randomUUID();
        FinalStopLine seam = new FinalStopLine(absent);
        assertFalse(seam.prepare());
        assertFalse(seam.engaged());

        Logger late = Logger.getLogger(absent);
        late.setUseParentHandlers(false);
        late.addHandler(handler);
        try {
            assertEquals(0, seam.undeployed(true));
            assertInstanceOf(Hk2LikeFormatter.class, handler.getFormatter());
        } finally {
            late.removeHandler(handler);
        }
    }

    @Test
    void aLoggerWithoutHandlersChangesNothing() {
        FinalStopLine seam = new FinalStopLine(name);
        assertTrue(seam.prepare());
        assertEquals(0, seam.undeployed(true));
        assertEquals(0, logger.getHandlers().length, "the rehearsal left a handler behind");
    }

    @Test
    void swappingTwiceKeepsTheFirstSwap() {
        logger.addHandler(handler);
        FinalStopLine seam = new FinalStopLine(name);
        seam.prepare();
        assertEquals(1, seam.undeployed(true));
        Formatter first = handler.getFormatter();
        assertEquals(0, seam.undeployed(true));
        assertSame(first, handler.getFormatter());
    }

    @Test
    void theWalkFollowsParentsAsLoggingDoesAndStopsWhereItStops() {
        Logger child = Logger.getLogger(name + ".child");
        StreamHandler own = new StreamHandler(new ByteArrayOutputStream(), new Hk2LikeFormatter());
        child.addHandler(own);
        logger.addHandler(handler);
        try {
            FinalStopLine seam = new FinalStopLine(child.getName());
            seam.prepare();
            assertEquals(2, seam.undeployed(true)); // the child's handler and its parent's
            assertInstanceOf(FinalStopLine.LineFormatter.class, handler.getFormatter());

            handler.setFormatter(new Hk2LikeFormatter());
            child.setUseParentHandlers(false);
            own.setFormatter(new Hk2LikeFormatter());
            assertEquals(1, seam.undeployed(true));
            assertInstanceOf(Hk2LikeFormatter.class, handler.getFormatter(), "a parent the record never reaches was changed");
        } finally {
            child.removeHandler(own);
        }
    }

    @Test
    void aThrownExceptionAndMultiLineMessagesKeepTheRecordsBrackets() {
        FinalStopLine.LineFormatter formatter = new FinalStopLine.LineFormatter();
        LogRecord record = new LogRecord(Level.SEVERE, "two\nlines");
        record.setLoggerName("x");
        record.setThrown(new IllegalStateException("ServiceLocatorImpl has been shut down"));
        String text = formatter.format(record);
        assertTrue(RECORD_START.matcher(text).find(), text);
        assertTrue(text.contains("[levelValue: 1000] [[\n  two\nlines\njava.lang.IllegalStateException"), text);
        assertTrue(text.contains("\tat "), text);
        assertTrue(text.endsWith("]]\n\n"), text);
    }

    @Test
    void outsideAJvmExitTheGuardRemovesItsHookAndSaysSo() {
        Thread hook = new Thread("finalstopline-test-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        assertFalse(ShutdownGuard.jvmExiting(hook));
        assertFalse(Runtime.getRuntime().removeShutdownHook(hook), "the hook is still registered");
        assertFalse(ShutdownGuard.jvmExiting(null));
    }

    /** Like Payara's formatters after the HK2 runtime is disposed: every record asks it for the product name. */
    static final class Hk2LikeFormatter extends Formatter {
        @Override
        public String format(LogRecord record) {
            throw new IllegalStateException("ServiceLocatorImpl(__HK2_Generated_0,0,1) has been shut down");
        }
    }
}
