package org.switchboard.container;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Compacts an embedded H2 file with the old chunks chosen before H2's store lock is taken, by reflection
 * into H2 2.x's {@code MVStore} and {@code FileStore}. H2's own {@code FileStore.compact} chooses them
 * while holding that lock, and every commit waits meanwhile: the choice walks every chunk in the file, so
 * at 100,000 chunks it was over half of a run's 20 ms (benchmarks-log, 2026-12-05). Here only the rewrite
 * of the chosen chunks' live pages holds the lock. The choice is H2's own ({@code findOldChunks}, which
 * reads the chunk map concurrently), and under the lock the chunks freed or pinned since are dropped from it.
 * The chunk map comes from {@link H2ChunkMap}. An H2 without these members answers {@link Result#UNAVAILABLE},
 * and the caller uses H2's public compaction.
 */
public final class H2ChunkRewrite {

    /** What one call did. */
    public enum Result {
        /** Live pages of old chunks were rewritten: the next commit writes them into a new chunk. */
        REWROTE,
        /** No chunk was worth rewriting, or none was left once the lock was held. */
        NOTHING_TO_REWRITE,
        /** A commit held H2's store lock for longer than the wait: try again on the next run. */
        STORE_BUSY,
        /** This H2 lacks a member used here, or the rewrite failed: use H2's public compaction from now on. */
        UNAVAILABLE
    }

    /** How long a run waits for the store lock; a longer commit means the file is busy (H2 waits as long). */
    private static final long LOCK_WAIT_MILLIS = 10;

    private static final Members MEMBERS = Members.find();

    /** What made the last call answer {@link Result#UNAVAILABLE} with the members present (for the log). */
    private static volatile String lastFailure = "";

    private H2ChunkRewrite() {
    }

    /** The exception behind the last {@link Result#UNAVAILABLE} of a call that found the members; empty if none. */
    public static String lastFailure() {
        return lastFailure;
    }

    /** True when this H2 has every member used here. */
    public static boolean available() {
        return MEMBERS != null;
    }

    /**
     * Rewrites the live pages of the old chunks of {@code mvStore} (an {@code org.h2.mvstore.MVStore} with a
     * file) filled at most {@code maxFillPercent} that H2 ranks first for freeing (emptiest and oldest), up
     * to {@code writeLimitBytes} of them. Only the compaction's one thread may call it.
     */
    public static Result rewriteOldChunks(Object mvStore, Object fileStore, int writeLimitBytes, int maxFillPercent) {
        Members m = MEMBERS;
        if (m == null || mvStore == null || fileStore == null) {
            return Result.UNAVAILABLE;
        }
        try {
            // the walk over every chunk, without the store lock: commits go on meanwhile
            Iterable<?> chosen = (Iterable<?>) m.findOldChunks.invoke(fileStore, writeLimitBytes, maxFillPercent);
            if (chosen == null) {
                return Result.NOTHING_TO_REWRITE;
            }
            Set<Integer> ids = new HashSet<>();
            for (Object chunk : chosen) {
                ids.add(m.chunkId.getInt(chunk));
            }
            if (ids.isEmpty()) {
                return Result.NOTHING_TO_REWRITE;
            }
            ReentrantLock storeLock = (ReentrantLock) m.storeLock.get(mvStore);
            ReentrantLock serializationLock = (ReentrantLock) m.serializationLock.get(fileStore);
            if (!storeLock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                return Result.STORE_BUSY;
            }
            try {
                serializationLock.lock();
                try {
                    Object usage = m.registerVersionUsage.invoke(mvStore);
                    try {
                        // since the choice a chunk may have been freed by a commit, or pinned: ask again
                        Map<?, ?> chunks = H2ChunkMap.map(fileStore);
                        if (chunks == null) {
                            return Result.UNAVAILABLE;
                        }
                        for (var it = ids.iterator(); it.hasNext(); ) {
                            Object chunk = chunks.get(it.next());
                            if (chunk == null || !(Boolean) m.isRewritable.invoke(chunk)) {
                                it.remove();
                            }
                        }
                        if (ids.isEmpty()) {
                            return Result.NOTHING_TO_REWRITE;
                        }
                        m.compactRewrite.invoke(fileStore, ids);
                        return Result.REWROTE;
                    } finally {
                        m.deregisterVersionUsage.invoke(mvStore, usage);
                    }
                } finally {
                    serializationLock.unlock();
                }
            } finally {
                storeLock.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.STORE_BUSY;
        } catch (InvocationTargetException e) {
            lastFailure = String.valueOf(e.getCause());
            return Result.UNAVAILABLE;
        } catch (IllegalAccessException | RuntimeException e) {
            lastFailure = e.toString();
            return Result.UNAVAILABLE;
        }
    }

    /** The H2 members used, or null when one is missing. */
    private record Members(Field storeLock, Field serializationLock, Field chunkId,
                           Method isRewritable, Method findOldChunks, Method compactRewrite, Method registerVersionUsage,
                           Method deregisterVersionUsage) {

        static Members find() {
            try {
                ClassLoader loader = H2ChunkRewrite.class.getClassLoader();
                Class<?> mvStore = Class.forName("org.h2.mvstore.MVStore", false, loader);
                Class<?> fileStore = Class.forName("org.h2.mvstore.FileStore", false, loader);
                Class<?> chunk = Class.forName("org.h2.mvstore.Chunk", false, loader);
                Class<?> txCounter = Class.forName("org.h2.mvstore.MVStore$TxCounter", false, loader);
                Field storeLock = accessible(mvStore.getDeclaredField("storeLock"));
                Field serializationLock = accessible(fileStore.getDeclaredField("serializationLock"));
                Field chunkId = accessible(chunk.getDeclaredField("id"));
                if (!H2ChunkMap.available() || storeLock.getType() != ReentrantLock.class
                        || serializationLock.getType() != ReentrantLock.class || chunkId.getType() != int.class) {
                    return null;
                }
                Method isRewritable = accessible(chunk.getDeclaredMethod("isRewritable"));
                Method findOldChunks = accessible(fileStore.getDeclaredMethod("findOldChunks", int.class, int.class));
                Method compactRewrite = accessible(fileStore.getDeclaredMethod("compactRewrite", Set.class));
                if (!Iterable.class.isAssignableFrom(findOldChunks.getReturnType()) || isRewritable.getReturnType() != boolean.class) {
                    return null;
                }
                return new Members(storeLock, serializationLock, chunkId, isRewritable, findOldChunks, compactRewrite,
                        mvStore.getMethod("registerVersionUsage"), mvStore.getMethod("deregisterVersionUsage", txCounter));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null; // another H2 layout, or no H2
            }
        }

        private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
            member.setAccessible(true);
            return member;
        }
    }
}
