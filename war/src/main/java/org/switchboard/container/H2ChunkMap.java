package org.switchboard.container;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * The size of an embedded H2 file's chunk map ({@code FileStore.chunks}), read by reflection: kept with the
 * container shortcuts, as {@link H2ChunkRewrite} is, where the architecture test allows reflection. H2
 * exposes the count only through {@code FileStore.populateInfo}, which also walks every chunk four more
 * times (2–3.5 ms a call with 35,000 chunks); an H2 without the field leaves {@link #size} at -1.
 */
public final class H2ChunkMap {

    private static final Field CHUNKS = field();

    private H2ChunkMap() {
    }

    private static Field field() {
        try {
            Field field = Class.forName("org.h2.mvstore.FileStore", false, H2ChunkMap.class.getClassLoader())
                    .getDeclaredField("chunks");
            if (!Map.class.isAssignableFrom(field.getType())) {
                return null;
            }
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // another H2 layout, or no H2: callers take H2's public figure
        }
    }

    /** True when this H2 has the chunk map, so {@link #size} answers. */
    public static boolean available() {
        return CHUNKS != null;
    }

    /** The number of chunks in {@code fileStore} (an {@code org.h2.mvstore.FileStore}), or -1 when it cannot be read. */
    public static int size(Object fileStore) {
        Map<?, ?> chunks = map(fileStore);
        return chunks == null ? -1 : chunks.size();
    }

    /** H2's own chunk map of {@code fileStore} (chunk id to chunk, read concurrently), or null when it cannot be read. */
    static Map<?, ?> map(Object fileStore) {
        if (CHUNKS == null || fileStore == null) {
            return null;
        }
        try {
            return (Map<?, ?>) CHUNKS.get(fileStore);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }
}
