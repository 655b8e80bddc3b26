package org.switchboard.schema;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.flywaydb.core.api.logging.Log;
import org.flywaydb.core.api.logging.LogCreator;

/**
 * Sends Flyway's messages to java.util.logging (the server's log) whatever logging libraries the
 * container happens to expose; its per-statement INFO chatter goes to FINE.
 */
final class JulFlywayLog implements LogCreator {

    @Override
    public Log createLogger(Class<?> type) {
        Logger logger = Logger.getLogger(type.getName());
        return new Log() {
            @Override
            public boolean isDebugEnabled() {
                return logger.isLoggable(Level.FINE);
            }

            @Override
            public void debug(String message) {
                logger.fine(message);
            }

            @Override
            public void info(String message) {
                logger.fine(message);
            }

            @Override
            public void warn(String message) {
                logger.warning(message);
            }

            @Override
            public void error(String message) {
                logger.severe(message);
            }

            @Override
            public void error(String message, Exception e) {
                logger.log(Level.SEVERE, message, e);
            }

            @Override
            public void notice(String message) {
                logger.info(message);
            }
        };
    }
}
