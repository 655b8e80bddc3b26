package org.switchboard.redsyn.paging;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.switchboard.json.Jsons;
import org.switchboard.redsyn.RedsynException;

/**
 * The bound of one REDSYN list reply: at most {@code maxEntries} entries and {@code maxBytes} bytes of
 * JSON. Entries are taken in order until the next one would not fit; the reply then carries
 * {@code "truncated": true} and a {@code "next_cursor"} that the client sends back as {@code ?cursor=}
 * to get the rest. The first entry of a page is always taken, so following the cursor always advances.
 */
public final class ListBudget {

    /** Bytes kept back for the reply's own members around the list (ids, title, counts, cursor). */
    public static final int RESERVE = 4096;

    private final long entryBytes;
    private final int maxEntries;
    private final List<JsonValue> taken = new java.util.ArrayList<>();
    private long used;

    public ListBudget(long maxBytes, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive");
        }
        this.entryBytes = Math.max(1, maxBytes - RESERVE);
        this.maxEntries = maxEntries;
    }

    /** One page: the entries taken and the cursor after the last row consumed (null at the end). */
    public record Page(List<JsonValue> entries, String nextCursor) {

        /** Whether more entries remain after this page. */
        public boolean truncated() {
            return nextCursor != null;
        }

        /** The entries as a JSON array. */
        public JsonArrayBuilder array() {
            JsonArrayBuilder a = Jsons.PROVIDER.createArrayBuilder();
            entries.forEach(a::add);
            return a;
        }

        /** Adds the list under {@code name} plus {@code truncated} and, when truncated, {@code next_cursor}. */
        public JsonObjectBuilder addTo(JsonObjectBuilder reply, String name) {
            reply.add(name, array()).add("truncated", truncated());
            if (nextCursor != null) {
                reply.add("next_cursor", nextCursor);
            }
            return reply;
        }
    }

    /**
     * Takes {@code entry} when it fits (the first entry always does); false when the page is full, and
     * then the entry is not part of it and the page's cursor must resume at it.
     */
    public boolean offer(JsonValue entry) {
        long size = utf8Length(entry.toString()) + (taken.isEmpty() ? 0 : 1);
        if (!taken.isEmpty() && (taken.size() >= maxEntries || used + size > entryBytes)) {
            return false;
        }
        taken.add(entry);
        used += size;
        return true;
    }

    /** The page so far, continued at {@code nextCursor} (null: nothing remains). */
    public Page page(String nextCursor) {
        return new Page(List.copyOf(taken), nextCursor);
    }

    /**
     * Takes {@code rows} in order. {@code render} gives a row's entry, or null for a row the caller may
     * not see (skipped, but consumed); {@code cursorAfter} is the cursor that resumes right after a row.
     * {@code moreBeyond} says the source holds rows after the last of {@code rows}.
     */
    public <T> Page fill(List<T> rows, boolean moreBeyond, Function<T, JsonValue> render, ToLongFunction<T> cursorAfter) {
        if (!taken.isEmpty()) {
            throw new IllegalStateException("fill starts a page: use a fresh budget");
        }
        for (int i = 0; i < rows.size(); i++) {
            JsonValue entry = render.apply(rows.get(i));
            if (entry != null && !offer(entry)) {
                // this row is not consumed: the cursor resumes at it (the first row always fits, so i > 0)
                return page(Long.toString(cursorAfter.applyAsLong(rows.get(i - 1))));
            }
        }
        boolean more = moreBeyond && !rows.isEmpty();
        return page(more ? Long.toString(cursorAfter.applyAsLong(rows.get(rows.size() - 1))) : null);
    }

    /**
     * Takes entries by position: skips the first {@code offset} of {@code rows} (a cursor of an
     * earlier page), then fills; for lists kept in a stable order whose length the plan bounds.
     */
    public <T> Page fillFromOffset(List<T> rows, long offset, Function<T, JsonValue> render) {
        int from = (int) Math.min(offset, rows.size());
        List<Integer> positions = java.util.stream.IntStream.range(from, rows.size()).boxed().toList();
        return fill(positions, false, i -> render.apply(rows.get(i)), i -> i + 1L);
    }

    /** The cursor as sent by the client: absent or blank is the start (0); anything but a decimal number is a 400. */
    public static long cursor(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        if (value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw RedsynException.badRequest("cursor must be a next_cursor value of an earlier reply");
        }
        return Long.parseLong(value);
    }

    /** Bytes of {@code s} in UTF-8, without encoding it. */
    static long utf8Length(CharSequence s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
