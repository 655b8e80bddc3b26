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

    @Resource
    TransactionSynchronizationRegistry transactions;

    private final Map<String, Object> entries = new ConcurrentHashMap<>();

    /**
     * The cached value for {@code key}, loading it when absent. Misses (null) are not cached, so that
     * unknown tokens or addresses sent by anyone cannot grow the cache.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(String key, Function<String, T> loader) {
        Object value = entries.get(key);
        if (value == null) {
            T loaded = loader.apply(key);
            if (loaded != null) {
                entries.put(key, loaded);
            }
            return loaded;
        }
        return (T) value;
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
