package org.switchboard.container;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;

/**
 * Compacts an embedded H2 file beside its commits, by reflection into H2 2.x's {@code MVStore},
 * {@code FileStore} and {@code MVMap}. H2's own {@code FileStore.compact} chooses the old chunks and rewrites
 * their live pages while holding its store lock, and every commit waits meanwhile: in delivery cycles at
 * 2,500/s that wait was most of the cycles' p99 (benchmarks-log, 2026-12-05). Here the choice is H2's own
 * ({@code findOldChunks}, which reads the chunk map concurrently) made without a lock; the chosen chunks' live
 * pages of the tables' maps are listed under H2's serialisation lock (which guards chunk occupancy), and each is
 * rewritten with no lock held through H2's {@code MVMap.rewritePage}: the same copy-on-write change any SQL
 * session makes while a commit runs, and a page changed meanwhile is left as it is. Pages of H2's own layout and
 * meta maps, which every commit changes under the serialisation lock, and of single-writer maps go H2's way:
 * those few chunks are rewritten under the store lock, waiting for it at most {@value #LOCK_WAIT_MILLIS} ms.
 * The chunk map comes from {@link H2ChunkMap}. An H2 without these members answers {@link Result#UNAVAILABLE},
 * and the caller uses H2's public compaction.
 */
public final class H2ChunkRewrite {

    /** What one call did. */
    public enum Result {
        /** Live pages of old chunks were rewritten: the next commit writes them into a new chunk. */
        REWROTE,
        /** No chunk was worth rewriting, or none was left once its pages were listed. */
        NOTHING_TO_REWRITE,
        /** Only chunks needing the store lock were chosen, and a commit held it longer than the wait: try again later. */
        STORE_BUSY,
        /** This H2 lacks a member used here, or the rewrite failed: use H2's public compaction from now on. */
        UNAVAILABLE
    }

    /** How long the locked part waits for the store lock; a longer commit means the file is busy (H2 waits as long). */
    static final long LOCK_WAIT_MILLIS = 10;

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
            // the walk over every chunk, without a lock: commits go on meanwhile
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
            // pinned while listed and rewritten: no chunk dead after this version is freed under the pages read
            Object usage = m.registerVersionUsage.invoke(mvStore);
            Pages pages = new Pages();
            Set<Integer> lockedIds = new HashSet<>();
            try {
                if (!pages.list(m, mvStore, fileStore, ids, lockedIds)) {
                    return Result.UNAVAILABLE;
                }
                int rewritten = pages.rewrite(m);
                Result locked = lockedIds.isEmpty() ? Result.NOTHING_TO_REWRITE : rewriteUnderStoreLock(m, mvStore, fileStore, lockedIds);
                if (locked == Result.UNAVAILABLE) {
                    return locked;
                }
                return rewritten > 0 ? Result.REWROTE : locked;
            } finally {
                m.deregisterVersionUsage.invoke(mvStore, usage);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.STORE_BUSY;
        } catch (InvocationTargetException e) {
            lastFailure = String.valueOf(e.getCause());
            return Result.UNAVAILABLE;
        } catch (ReflectiveOperationException | RuntimeException e) {
            lastFailure = e.toString();
            return Result.UNAVAILABLE;
        }
    }

    /**
     * Frees the chunks no version in use needs any more, under H2's store lock as H2 itself does (a commit
     * frees them too; this frees them when no commit follows). False when a commit held the lock longer
     * than the wait, or this H2 lacks the members.
     */
    public static boolean dropUnusedChunks(Object mvStore, Object fileStore) {
        Members m = MEMBERS;
        if (m == null || mvStore == null || fileStore == null) {
            return false;
        }
        try {
            ReentrantLock storeLock = (ReentrantLock) m.storeLock.get(mvStore);
            if (!storeLock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                return false;
            }
            try {
                m.dropUnusedChunks.invoke(fileStore);
                return true;
            } finally {
                storeLock.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (InvocationTargetException | IllegalAccessException | RuntimeException e) {
            lastFailure = e instanceof InvocationTargetException ite ? String.valueOf(ite.getCause()) : e.toString();
            return false;
        }
    }

    /** H2's own rewrite of {@code ids}, as its compaction does it: under the store and serialisation locks. */
    private static Result rewriteUnderStoreLock(Members m, Object mvStore, Object fileStore, Set<Integer> ids)
            throws ReflectiveOperationException, InterruptedException {
        ReentrantLock storeLock = (ReentrantLock) m.storeLock.get(mvStore);
        ReentrantLock serializationLock = (ReentrantLock) m.serializationLock.get(fileStore);
        if (!storeLock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
            return Result.STORE_BUSY;
        }
        try {
            serializationLock.lock();
            try {
                // since the choice a chunk may have been freed by a commit, or pinned: ask again
                Map<?, ?> chunks = H2ChunkMap.map(fileStore);
                if (chunks == null) {
                    return Result.UNAVAILABLE;
                }
                ids.removeIf(id -> !rewritable(m, chunks.get(id)));
                if (ids.isEmpty()) {
                    return Result.NOTHING_TO_REWRITE;
                }
                m.compactRewrite.invoke(fileStore, ids);
                return Result.REWROTE;
            } finally {
                serializationLock.unlock();
            }
        } finally {
            storeLock.unlock();
        }
    }

    private static boolean rewritable(Members m, Object chunk) {
        try {
            return chunk != null && (Boolean) m.isRewritable.invoke(chunk);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The live pages of the chosen chunks that may be rewritten beside commits: leaves first, then inner pages. */
    private static final class Pages {
        /** One page: the map it belongs to and its position in the file. */
        private record Page(Object map, long pos) {
        }

        private final List<Page> leaves = new ArrayList<>();
        private final List<Page> nodes = new ArrayList<>();

        /**
         * Lists, under H2's serialisation lock, the live pages of each chunk in {@code ids} still rewritable; a
         * chunk with a live page of H2's layout or meta map or of a single-writer map goes to {@code lockedIds}
         * instead. False when the chunk map cannot be read.
         */
        boolean list(Members m, Object mvStore, Object fileStore, Set<Integer> ids, Set<Integer> lockedIds)
                throws ReflectiveOperationException {
            ReentrantLock serializationLock = (ReentrantLock) m.serializationLock.get(fileStore);
            serializationLock.lock();
            try {
                Map<?, ?> chunks = H2ChunkMap.map(fileStore);
                if (chunks == null) {
                    return false;
                }
                int layoutId = (Integer) m.mapId.invoke(m.layout.get(fileStore));
                int metaId = (Integer) m.mapId.invoke(m.metaMap.invoke(mvStore));
                for (Integer id : ids) {
                    Object chunk = chunks.get(id);
                    if (!rewritable(m, chunk)) {
                        continue;
                    }
                    long[] toc = (long[]) m.getToC.invoke(fileStore, chunk);
                    if (toc == null) {
                        lockedIds.add(id); // a chunk without a table of contents: H2's way reads it whole
                        continue;
                    }
                    BitSet occupancy = (BitSet) m.occupancy.get(chunk);
                    int pageCount = m.pageCount.getInt(chunk);
                    int leafMark = leaves.size();
                    int nodeMark = nodes.size();
                    boolean needsLock = false;
                    for (int pageNo = 0; (pageNo = occupancy.nextClearBit(pageNo)) < pageCount; ++pageNo) {
                        long tocElement = toc[pageNo];
                        int mapId = DataUtils.getPageMapId(tocElement);
                        if (mapId == layoutId || mapId == metaId) {
                            needsLock = true; // H2's own maps: changed by every commit under the serialisation lock
                            continue;
                        }
                        Object map = m.getMap.invoke(mvStore, mapId);
                        if (map == null || (Boolean) m.isClosed.invoke(map)) {
                            continue; // a map not open: H2 leaves its pages too
                        }
                        if ((Boolean) m.isSingleWriter.invoke(map)) {
                            needsLock = true;
                            continue;
                        }
                        Page page = new Page(map, DataUtils.composePagePos(id, tocElement));
                        (DataUtils.isLeafPosition(tocElement) ? leaves : nodes).add(page);
                    }
                    if (needsLock) {
                        leaves.subList(leafMark, leaves.size()).clear();
                        nodes.subList(nodeMark, nodes.size()).clear();
                        lockedIds.add(id);
                    }
                }
                return true;
            } finally {
                serializationLock.unlock();
            }
        }

        /**
         * Rewrites every listed page with no lock held, leaves first (rewriting a leaf copies its path, so most
         * inner pages go with it and are skipped then). Returns the pages H2 rewrote.
         */
        int rewrite(Members m) throws ReflectiveOperationException {
            int rewritten = 0;
            for (Page page : leaves) {
                rewritten += rewritePage(m, page);
            }
            for (Page page : nodes) {
                rewritten += rewritePage(m, page);
            }
            return rewritten;
        }

        private static int rewritePage(Members m, Page page) throws ReflectiveOperationException {
            try {
                return (Boolean) m.rewritePage.invoke(page.map(), page.pos()) ? 1 : 0;
            } catch (InvocationTargetException e) {
                // the chunk was freed after the listing: its pages were dead before this run's version, so no
                // tree holds this one any more
                if (e.getCause() instanceof MVStoreException stale && stale.getErrorCode() == DataUtils.ERROR_CHUNK_NOT_FOUND) {
                    return 0;
                }
                throw e;
            }
        }
    }

    /** The H2 members used, or null when one is missing. */
    private record Members(Field storeLock, Field serializationLock, Field chunkId,
                           Method isRewritable, Method findOldChunks, Method compactRewrite, Method registerVersionUsage,
                           Method deregisterVersionUsage, Method dropUnusedChunks, Field layout, Field occupancy,
                           Field pageCount, Method getToC, Method getMap, Method metaMap, Method mapId, Method isClosed,
                           Method isSingleWriter, Method rewritePage) {

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
                Class<?> mvMap = Class.forName("org.h2.mvstore.MVMap", false, loader);
                Field occupancy = accessible(chunk.getDeclaredField("occupancy"));
                Field pageCount = accessible(chunk.getDeclaredField("pageCount"));
                Method getToC = accessible(fileStore.getDeclaredMethod("getToC", chunk));
                Method rewritePage = accessible(mvMap.getDeclaredMethod("rewritePage", long.class));
                Method isSingleWriter = accessible(mvMap.getDeclaredMethod("isSingleWriter"));
                if (occupancy.getType() != BitSet.class || pageCount.getType() != int.class || getToC.getReturnType() != long[].class
                        || rewritePage.getReturnType() != boolean.class || isSingleWriter.getReturnType() != boolean.class) {
                    return null;
                }
                return new Members(storeLock, serializationLock, chunkId, isRewritable, findOldChunks, compactRewrite,
                        mvStore.getMethod("registerVersionUsage"), mvStore.getMethod("deregisterVersionUsage", txCounter),
                        fileStore.getMethod("dropUnusedChunks"), accessible(fileStore.getDeclaredField("layout")),
                        occupancy, pageCount, getToC, mvStore.getMethod("getMap", int.class), mvStore.getMethod("getMetaMap"),
                        mvMap.getMethod("getId"), mvMap.getMethod("isClosed"), isSingleWriter, rewritePage);
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
