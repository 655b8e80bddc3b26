package org.switchboard.journal;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Consumer;

/**
 * Reads the stored log page by page and decodes it; rows whose payload is not a JSON object are
 * skipped, remembered as corrupt and handed once to the quarantine recorder (synapse-core §16.5).
 */
public final class JournalReader {

    /** One page of stored rows, ascending by seq. */
    @FunctionalInterface
    public interface PageSource {
        /** Up to {@code limit} rows with seq above {@code afterSeq}; empty kinds = every kind. */
        List<StoredEvent> page(long afterSeq, int limit, Set<String> kinds);
    }

    /** Durable record of newly found corrupt rows (seq to reason). */
    @FunctionalInterface
    public interface QuarantineRecorder {
        /** Records the markers; may fail, the in-memory quarantine stands regardless. */
        void record(Map<Long, String> reasons);
    }

    /** An event row as stored, payload not yet decoded. */
    public record StoredEvent(long seq, String kind, String payload, double appendedAt) {
    }

    private final PageSource source;
    private final QuarantineRecorder recorder;
    private final int pageSize;
    private final Set<Long> corrupt = new ConcurrentSkipListSet<>();

    /** A reader over {@code source} fetching {@code pageSize} rows per query. */
    public JournalReader(PageSource source, QuarantineRecorder recorder, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be positive");
        }
        this.source = source;
        this.recorder = recorder;
        this.pageSize = pageSize;
    }

    /** Seeds the quarantine with markers recorded by earlier runs. */
    public void alreadyQuarantined(Collection<Long> seqs) {
        corrupt.addAll(seqs);
    }

    /** Readable events with seq above {@code afterSeq}, ascending, at most {@code limit} (corrupt rows do not count). */
    public List<JournalEvent> read(long afterSeq, int limit, Set<String> kinds) {
        List<JournalEvent> result = new ArrayList<>(Math.min(Math.max(limit, 0), pageSize));
        long after = afterSeq;
        while (result.size() < limit) {
            int wanted = Math.min(pageSize, limit - result.size());
            List<StoredEvent> rows = source.page(after, wanted, kinds);
            after = decodeInto(rows, result::add, after);
            if (rows.size() < wanted) {
                break;
            }
        }
        return result;
    }

    /** Streams every readable event in seq order, one page in memory at a time. */
    public void replay(Consumer<JournalEvent> sink) {
        replay(0, sink);
    }

    /** As {@link #replay(Consumer)}, only rows with seq above {@code afterSeq} (the tail after a state snapshot). */
    public void replay(long afterSeq, Consumer<JournalEvent> sink) {
        long after = afterSeq;
        while (true) {
            List<StoredEvent> rows = source.page(after, pageSize, Set.of());
            after = decodeInto(rows, sink, after);
            if (rows.size() < pageSize) {
                return;
            }
        }
    }

    /** The decoded event of one stored row, or null (and quarantined) when it is corrupt. */
    public JournalEvent decode(StoredEvent row) {
        List<JournalEvent> one = new ArrayList<>(1);
        decodeInto(List.of(row), one::add, row.seq());
        return one.isEmpty() ? null : one.get(0);
    }

    /** Quarantined seqs, ascending. */
    public List<Long> corruptSeqs() {
        return List.copyOf(corrupt);
    }

    /** Decodes rows into the sink, quarantining corrupt ones; returns the last seq seen. */
    private long decodeInto(List<StoredEvent> rows, Consumer<JournalEvent> sink, long after) {
        Map<Long, String> fresh = new LinkedHashMap<>();
        long last = after;
        for (StoredEvent row : rows) {
            last = row.seq();
            JsonObject payload;
            try {
                payload = PayloadCodec.decode(row.payload());
            } catch (PayloadCodec.CorruptPayloadException e) {
                if (corrupt.add(row.seq())) {
                    fresh.put(row.seq(), e.getMessage());
                }
                continue;
            }
            sink.accept(new JournalEvent(row.seq(), row.kind(), payload, row.appendedAt()));
        }
        if (!fresh.isEmpty()) {
            recorder.record(fresh);
        }
        return last;
    }
}
