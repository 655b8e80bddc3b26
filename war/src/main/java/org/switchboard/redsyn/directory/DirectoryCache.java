package org.switchboard.redsyn.directory;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Read-through caches of the directory (tokens, memberships, organisations, agents), so the send and
 * take paths do not query it on every call. Directory writes are rare: any write empties every cache
 * when its transaction ends.
 */
@ApplicationScoped
public class DirectoryCache {

    private static final Object MISSING = new Object();

    @Resource
    TransactionSynchronizationRegistry transactions;

    private final Map<String, Object> entries = new ConcurrentHashMap<>();

    /** The cached value for {@code key}, loading it (null allowed) when absent. */
    @SuppressWarnings("unchecked")
    public <T> T get(String key, Function<String, T> loader) {
        Object value = entries.get(key);
        if (value == null) {
            T loaded = loader.apply(key);
            entries.put(key, loaded == null ? MISSING : loaded);
            return loaded;
        }
        return value == MISSING ? null : (T) value;
    }

    /** Empties the caches now and again when the current transaction ends. */
    public void invalidate() {
        entries.clear();
        if (transactions != null && transactions.getTransactionKey() != null) {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    entries.clear();
                }
            });
        }
    }
}
