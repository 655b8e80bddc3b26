package org.switchboard.synapse.delivery;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Finished delivery requests packed as byte records, for the {@link DeliveryBook}. Once a request is
 * terminal only retries, status reads, replayed reports and notification replays read it, so it needs no
 * Java objects of its own: its fields and stored mutations are one record in a shared byte segment, found
 * through two open-addressing indexes (operation key; sender and idempotency key). A held request then
 * costs the collector nothing to trace, and about a third of the memory it took as objects. The segments
 * are direct buffers, outside the heap: a new segment outlives several young collections before it is
 * promoted, and as a heap array it was most of what each of them copied (so most of their pause). Records
 * stay in the order they were archived, which is the order they are forgotten in. Thread-safe: reads share
 * a read lock and changes take the write lock, so the book's look-ups of finished requests (a new request's
 * idempotency pair, a status read) need not wait for the book's own lock, which every stage change takes.
 */
final class TerminalArchive {

    /** One archived request as read back: its state (no body, no fallbacks, no offer) and what the record adds. */
    record Entry(Aggregate aggregate, boolean ownsPair, List<String> mutationIds, List<DeliveryBook.Mutation> mutations,
                 double closedAt) {
    }

    private static final int SEGMENT = 1 << 18;
    private static final int OWNS_PAIR = 1;
    private static final int CANCEL_REQUESTED = 2;
    private static final int BOUNDARY_DELIVERED = 4;
    private static final int ACKNOWLEDGED = 8;
    private static final Stage[] STAGES = Stage.values();

    /** At most this many words (hub ids, mode and quality names) are written by number. */
    private static final int WORDS_MAX = 4096;

    private final List<ByteBuffer> segments = new ArrayList<>();
    /** The few values many records repeat (hub ids, mode and quality names), written as their index here. */
    private final List<String> words = new ArrayList<>();
    private final java.util.Map<String, Integer> wordIndex = new java.util.HashMap<>();
    /** Bytes written in each finished segment, by segment index. */
    private final List<Integer> ends = new ArrayList<>();
    /** Bytes written in the last segment. */
    private int fill = SEGMENT;
    /** The first record not forgotten: segment index and offset. */
    private int headSegment;
    private int headOffset;
    private int size;
    /** Bytes of the segments held (outside the heap). */
    private long segmentBytes;
    private final Index byKey = new Index();
    private final Index byPair = new Index();
    private final java.util.concurrent.locks.ReentrantReadWriteLock lock = new java.util.concurrent.locks.ReentrantReadWriteLock();
    private final java.util.concurrent.locks.Lock read = lock.readLock();
    private final java.util.concurrent.locks.Lock write = lock.writeLock();

    /** Bytes of direct memory the held segments take. */
    long segmentBytes() {
        read.lock();
        try {
            return segmentBytes;
        } finally {
            read.unlock();
        }
    }

    /** Records held. */
    int size() {
        read.lock();
        try {
            return size;
        } finally {
            read.unlock();
        }
    }

    /**
     * Archives {@code a} (terminal, committed) with its stored mutations, closed at {@code closedAt};
     * {@code ownsPair} when its {@code (sender, idempotency_key)} pair names it.
     */
    void add(Aggregate a, boolean ownsPair, List<String> mutationIds, List<DeliveryBook.Mutation> mutations, double closedAt) {
        write.lock();
        try {
            addLocked(a, ownsPair, mutationIds, mutations, closedAt);
        } finally {
            write.unlock();
        }
    }

    private void addLocked(Aggregate a, boolean ownsPair, List<String> mutationIds, List<DeliveryBook.Mutation> mutations,
                           double closedAt) {
        DeliveryIntent i = a.intent();
        Writer w = new Writer();
        w.text(a.operationKey()).text(i.sender()).text(i.idempotencyKey());
        int flags = (ownsPair ? OWNS_PAIR : 0) | (a.cancelRequested() ? CANCEL_REQUESTED : 0)
                | (a.boundaryDelivered() ? BOUNDARY_DELIVERED : 0) | (a.explicitlyAcknowledged() ? ACKNOWLEDGED : 0);
        w.number(flags).number(a.stage().ordinal()).number(a.ordinal()).number(a.latestEventSeq()).number(a.admittedOrder());
        w.word(a.originHub()).word(a.receivingHub()).text(a.digest()).word(a.selectedMode()).word(a.quality());
        w.text(i.requestId()).text(i.target()).text(i.targetIncarnation()).word(i.mode()).text(i.taskId());
        w.real(i.deadline()).real(closedAt).number(mutationIds.size());
        for (int m = 0; m < mutationIds.size(); m++) {
            w.text(mutationIds.get(m)).text(mutations.get(m).digest()).number(mutations.get(m).eventSeq());
        }
        long ref = append(w);
        byKey.put(keyHash(a.operationKey()), ref);
        if (ownsPair) {
            byPair.put(pairHash(i.sender(), i.idempotencyKey()), ref);
        }
        size++;
    }

    /** The archived request {@code operationKey}, or null. */
    Entry get(String operationKey) {
        read.lock();
        try {
            long ref = find(operationKey);
            return ref < 0 ? null : read(ref);
        } finally {
            read.unlock();
        }
    }

    /** The archived request whose {@code (sender, idempotencyKey)} pair names it, or null. */
    Entry byPair(String sender, String idempotencyKey) {
        long hash = pairHash(sender, idempotencyKey);
        read.lock();
        try {
            for (int slot = byPair.first(hash); slot >= 0; slot = byPair.next(slot, hash)) {
                Reader r = new Reader(byPair.ref(slot));
                r.text();
                if (sender.equals(r.text()) && idempotencyKey.equals(r.text())) {
                    return read(byPair.ref(slot));
                }
            }
            return null;
        } finally {
            read.unlock();
        }
    }

    /** The mutation {@code mutationId} stored with the archived request {@code operationKey}, or null. */
    DeliveryBook.Mutation mutation(String operationKey, String mutationId) {
        Entry e;
        read.lock();
        try {
            long ref = find(operationKey);
            if (ref < 0) {
                return null;
            }
            e = read(ref);
        } finally {
            read.unlock();
        }
        int at = e.mutationIds().indexOf(mutationId);
        return at < 0 ? null : e.mutations().get(at);
    }

    /** The earliest archived record still held, or null. */
    Entry head() {
        // the write lock: finding the head releases finished segments
        write.lock();
        try {
            return size == 0 ? null : read(headRef());
        } finally {
            write.unlock();
        }
    }

    /** Drops the earliest record ({@link #head}) and its index entries. */
    void removeHead() {
        write.lock();
        try {
            removeHeadLocked();
        } finally {
            write.unlock();
        }
    }

    private void removeHeadLocked() {
        long ref = headRef();
        Reader r = new Reader(ref);
        String key = r.text();
        String sender = r.text();
        String idempotencyKey = r.text();
        int flags = (int) r.number();
        byKey.remove(keyHash(key), ref);
        if ((flags & OWNS_PAIR) != 0) {
            byPair.remove(pairHash(sender, idempotencyKey), ref);
        }
        size--;
        headOffset += recordLength(segments.get(headSegment), headOffset);
        advanceHead();
    }

    /** Every record, earliest archived first. */
    void forEach(java.util.function.Consumer<Entry> visitor) {
        read.lock();
        try {
            int segment = headSegment;
            int offset = headOffset;
            for (int n = 0; n < size; n++) {
                if (offset >= limit(segment)) {
                    segment++;
                    offset = 0;
                }
                visitor.accept(read(((long) segment << 32) | offset));
                offset += recordLength(segments.get(segment), offset);
            }
        } finally {
            read.unlock();
        }
    }

    private long find(String operationKey) {
        long hash = keyHash(operationKey);
        for (int slot = byKey.first(hash); slot >= 0; slot = byKey.next(slot, hash)) {
            if (operationKey.equals(new Reader(byKey.ref(slot)).text())) {
                return byKey.ref(slot);
            }
        }
        return -1;
    }

    private long headRef() {
        advanceHead();
        return ((long) headSegment << 32) | headOffset;
    }

    /** Moves the head past a finished segment, releasing it. */
    private void advanceHead() {
        while (headSegment < segments.size() - 1 && headOffset >= limit(headSegment)) {
            segmentBytes -= segments.get(headSegment).capacity();
            segments.set(headSegment, null);
            headSegment++;
            headOffset = 0;
        }
    }

    /** Bytes used in {@code segment}. */
    private int limit(int segment) {
        return segment == segments.size() - 1 ? fill : ends.get(segment);
    }

    private long append(Writer w) {
        int length = w.length();
        if (segments.isEmpty() || fill + length > segments.get(segments.size() - 1).capacity()) {
            if (!segments.isEmpty()) {
                ends.add(fill);
            }
            segments.add(ByteBuffer.allocateDirect(Math.max(SEGMENT, length)));
            segmentBytes += segments.get(segments.size() - 1).capacity();
            fill = 0;
        }
        int segment = segments.size() - 1;
        long ref = ((long) segment << 32) | fill;
        w.copyTo(segments.get(segment), fill);
        fill += length;
        return ref;
    }

    private Entry read(long ref) {
        Reader r = new Reader(ref);
        String operationKey = r.text();
        String sender = r.text();
        String idempotencyKey = r.text();
        int flags = (int) r.number();
        Stage stage = STAGES[(int) r.number()];
        long ordinal = r.number();
        long latestEventSeq = r.number();
        long admittedOrder = r.number();
        String originHub = r.text();
        String receivingHub = r.text();
        String digest = r.text();
        String selectedMode = r.text();
        String quality = r.text();
        String requestId = r.text();
        String target = r.text();
        String targetIncarnation = r.text();
        String mode = r.text();
        String taskId = r.text();
        double deadline = r.real();
        double closedAt = r.real();
        int count = (int) r.number();
        List<String> ids = new ArrayList<>(count);
        List<DeliveryBook.Mutation> mutations = new ArrayList<>(count);
        for (int m = 0; m < count; m++) {
            ids.add(r.text());
            mutations.add(new DeliveryBook.Mutation(r.text(), r.number()));
        }
        DeliveryIntent intent = new DeliveryIntent(sender, requestId, idempotencyKey, target, targetIncarnation, mode,
                List.of(), taskId, "", deadline);
        Aggregate a = new Aggregate(operationKey, intent, originHub, receivingHub, digest, selectedMode, quality, stage,
                (flags & CANCEL_REQUESTED) != 0, (flags & BOUNDARY_DELIVERED) != 0, (flags & ACKNOWLEDGED) != 0,
                ordinal, latestEventSeq, admittedOrder, null);
        return new Entry(a, (flags & OWNS_PAIR) != 0, ids, mutations, closedAt);
    }

    private static final int UTF8 = 1;
    private static final int HEX = 2;
    private static final int WORD = 3;

    /** Lowercase hex of an even, non-zero length: packed two digits a byte and read back the same. */
    static boolean packableHex(String value) {
        int length = value.length();
        if (length == 0 || (length & 1) != 0) {
            return false;
        }
        for (int c = 0; c < length; c++) {
            char ch = value.charAt(c);
            if ((ch < '0' || ch > '9') && (ch < 'a' || ch > 'f')) {
                return false;
            }
        }
        return true;
    }

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    /** The value of a lowercase hex digit (callers checked {@link #packableHex}). */
    private static int digit(char ch) {
        return ch <= '9' ? ch - '0' : ch - 'a' + 10;
    }

    private static int recordLength(ByteBuffer segment, int offset) {
        return segment.getInt(offset);
    }

    static long keyHash(String text) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return mix(h);
    }

    static long pairHash(String sender, String idempotencyKey) {
        return mix(keyHash(sender) * 31 + keyHash(idempotencyKey));
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /**
     * Builds one record: a 4-byte length, then the fields. A text is a number, 0 for null, else its byte
     * count shifted left by two with its kind in the low bits: UTF-8, lowercase hex packed two digits a
     * byte (keys, digests and incarnations, half the bytes), or a word's index (no bytes follow).
     */
    private final class Writer {
        private byte[] bytes = new byte[512];
        private int at = 4;

        Writer text(String value) {
            if (value == null) {
                return number(0);
            }
            if (packableHex(value)) {
                // two digits a byte, written in place (no decoded copy: keys and digests are most of a record)
                int n = value.length() >> 1;
                number(((long) n << 2) | HEX);
                room(n);
                for (int c = 0; c < value.length(); c += 2) {
                    bytes[at++] = (byte) (digit(value.charAt(c)) << 4 | digit(value.charAt(c + 1)));
                }
                return this;
            }
            byte[] raw = value.getBytes(StandardCharsets.UTF_8);
            number(((long) raw.length << 2) | UTF8);
            room(raw.length);
            System.arraycopy(raw, 0, bytes, at, raw.length);
            at += raw.length;
            return this;
        }

        /** A value of a small set (hub ids, mode and quality names): its word's index, or as text once the set is full. */
        Writer word(String value) {
            if (value == null) {
                return number(0);
            }
            Integer index = wordIndex.get(value);
            if (index == null && words.size() < WORDS_MAX) {
                index = words.size();
                words.add(value);
                wordIndex.put(value, index);
            }
            return index == null ? text(value) : number(((long) index << 2) | WORD);
        }

        Writer number(long value) {
            room(10);
            long v = value;
            while ((v & ~0x7FL) != 0) {
                bytes[at++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[at++] = (byte) v;
            return this;
        }

        Writer real(double value) {
            long bits = Double.doubleToRawLongBits(value);
            room(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[at++] = (byte) (bits >>> shift);
            }
            return this;
        }

        int length() {
            return at;
        }

        void copyTo(ByteBuffer target, int offset) {
            bytes[0] = (byte) (at >>> 24);
            bytes[1] = (byte) (at >>> 16);
            bytes[2] = (byte) (at >>> 8);
            bytes[3] = (byte) at;
            target.put(offset, bytes, 0, at);
        }

        private void room(int more) {
            if (at + more > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, at + more));
            }
        }
    }

    /** Reads one record's fields in order. */
    private final class Reader {
        private final ByteBuffer bytes;
        private int at;

        Reader(long ref) {
            this.bytes = segments.get((int) (ref >>> 32));
            this.at = (int) ref + 4;
        }

        String text() {
            long head = number();
            if (head == 0) {
                return null;
            }
            int n = (int) (head >>> 2);
            switch ((int) head & 3) {
                case WORD:
                    return words.get(n);
                case HEX: {
                    byte[] digits = new byte[n << 1];
                    for (int b = 0; b < n; b++) {
                        int v = bytes.get(at++) & 0xFF;
                        digits[b << 1] = HEX_DIGITS[v >>> 4];
                        digits[(b << 1) + 1] = HEX_DIGITS[v & 0xF];
                    }
                    return new String(digits, StandardCharsets.ISO_8859_1);
                }
                default: {
                    byte[] raw = new byte[n];
                    bytes.get(at, raw, 0, n);
                    at += n;
                    return new String(raw, StandardCharsets.UTF_8);
                }
            }
        }

        long number() {
            long value = 0;
            int shift = 0;
            byte b;
            do {
                b = bytes.get(at++);
                value |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            return value;
        }

        double real() {
            long bits = 0;
            for (int n = 0; n < 8; n++) {
                bits = (bits << 8) | (bytes.get(at++) & 0xFF);
            }
            return Double.longBitsToDouble(bits);
        }
    }

    /**
     * An open-addressing table from a 64-bit hash to record references (linear probing; removals leave a
     * tombstone; the table is rebuilt when live and dead entries fill half of it). Several records may share
     * a hash: callers check the record itself.
     */
    private static final class Index {
        private static final long EMPTY = 0;
        private static final long DEAD = -1;
        /** The hash folded to 32 bits: it places the entry, and a slot's record is read only when it matches. */
        private int[] hashes = new int[1024];
        /** Record reference + 1, or EMPTY / DEAD. */
        private long[] refs = new long[1024];
        private int used;
        private int live;

        void put(long hash, long ref) {
            if ((used + 1) * 2 > refs.length) {
                rebuild(Math.max(1024, Integer.highestOneBit(Math.max(1, live) * 3) << 1));
            }
            int mask = refs.length - 1;
            int slot = (int) hash & mask;
            while (refs[slot] > 0) {
                slot = (slot + 1) & mask;
            }
            if (refs[slot] == EMPTY) {
                used++;
            }
            hashes[slot] = (int) hash;
            refs[slot] = ref + 1;
            live++;
        }

        void remove(long hash, long ref) {
            for (int slot = first(hash); slot >= 0; slot = next(slot, hash)) {
                if (refs[slot] == ref + 1) {
                    refs[slot] = DEAD;
                    live--;
                    return;
                }
            }
        }

        /** The first slot holding {@code hash}, or -1. */
        int first(long hash) {
            return scan((int) hash & (refs.length - 1), hash);
        }

        /** The next slot after {@code slot} holding {@code hash}, or -1. */
        int next(int slot, long hash) {
            return scan((slot + 1) & (refs.length - 1), hash);
        }

        long ref(int slot) {
            return refs[slot] - 1;
        }

        private int scan(int from, long hash) {
            int mask = refs.length - 1;
            for (int slot = from; refs[slot] != EMPTY; slot = (slot + 1) & mask) {
                if (refs[slot] > 0 && hashes[slot] == (int) hash) {
                    return slot;
                }
            }
            return -1;
        }

        private void rebuild(int capacity) {
            int[] oldHashes = hashes;
            long[] oldRefs = refs;
            hashes = new int[capacity];
            refs = new long[capacity];
            used = 0;
            live = 0;
            for (int slot = 0; slot < oldRefs.length; slot++) {
                if (oldRefs[slot] > 0) {
                    put(oldHashes[slot], oldRefs[slot] - 1);
                }
            }
        }
    }
}
