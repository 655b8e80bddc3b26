package org.switchboard.synapse;

import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** A recording {@link Peer}: frames written, close code and reason; writes can be made to fail. */
public final class FakePeer implements Peer {

    private static final AtomicInteger IDS = new AtomicInteger();
    private final String id = "p" + IDS.incrementAndGet();
    private final String host;
    private final List<JsonObject> frames = new ArrayList<>();
    private boolean open = true;
    private boolean failWrites;
    private List<CompletableFuture<Boolean>> heldWrites;
    private int closeCode;
    private String closeReason;

    public FakePeer(String host) {
        this.host = host;
    }

    public FakePeer() {
        this("127.0.0.1");
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String remoteHost() {
        return host;
    }

    @Override
    public synchronized CompletableFuture<Boolean> send(String text) {
        if (!open || failWrites) {
            return CompletableFuture.completedFuture(false);
        }
        frames.add(org.switchboard.json.Jsons.PROVIDER.createReaderFactory(org.switchboard.json.Jsons.LONG_NUMBERS)
                .createReader(new StringReader(text)).readObject()); // hub frames may carry 4300-digit numbers
        if (heldWrites != null) {
            CompletableFuture<Boolean> write = new CompletableFuture<>();
            heldWrites.add(write);
            return write;
        }
        return CompletableFuture.completedFuture(true);
    }

    /** From now on writes are recorded but stay unacknowledged until {@link #releaseWrites}. */
    public synchronized void holdWrites() {
        heldWrites = new ArrayList<>();
    }

    /** Completes every held write with {@code written} and stops holding. */
    public void releaseWrites(boolean written) {
        List<CompletableFuture<Boolean>> held;
        synchronized (this) {
            held = heldWrites;
            heldWrites = null;
        }
        if (held != null) {
            held.forEach(write -> write.complete(written));
        }
    }

    @Override
    public synchronized void close(int code, String reason) {
        if (open) {
            open = false;
            closeCode = code;
            closeReason = reason;
        }
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    public synchronized void failWrites(boolean fail) {
        failWrites = fail;
    }

    public synchronized List<JsonObject> frames() {
        return List.copyOf(frames);
    }

    /** Frames of one type, in order. */
    public synchronized List<JsonObject> ofType(String type) {
        return frames.stream().filter(f -> type.equals(f.getString("type", ""))).toList();
    }

    /** The last frame matching, or an AssertionError. */
    public synchronized JsonObject last(Predicate<JsonObject> match) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (match.test(frames.get(i))) {
                return frames.get(i);
            }
        }
        throw new AssertionError("no matching frame in " + frames);
    }

    public synchronized JsonObject lastOfType(String type) {
        return last(f -> type.equals(f.getString("type", "")));
    }

    public synchronized void clear() {
        frames.clear();
    }

    public synchronized int closeCode() {
        return closeCode;
    }

    public synchronized String closeReason() {
        return closeReason;
    }
}
