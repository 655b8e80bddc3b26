package org.switchboard.redsyn.message;

import java.util.function.LongSupplier;

/**
 * Ids from a database sequence taken a block at a time, the way JPA takes them for the same entity: the
 * sequence increments by the block size, and a read of it hands out the block that ends at the value read.
 * So ids given here and ids JPA gives from the same sequence never meet.
 */
public final class IdBlock {

    private final int size;
    private long next;
    private long last = -1;
    private boolean empty = true;

    /** A source of blocks of {@code size} ids (the sequence's increment). */
    public IdBlock(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("block size " + size);
        }
        this.size = size;
    }

    /**
     * The next id, reading the sequence through {@code read} when the block is spent. Synchronized: held
     * for a counter step, and for one read of the sequence every {@code size} ids.
     */
    public synchronized long next(LongSupplier read) {
        if (empty || next > last) {
            last = read.getAsLong();
            next = last - size + 1;
            empty = false;
        }
        return next++;
    }
}
