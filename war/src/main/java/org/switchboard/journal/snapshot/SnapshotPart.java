package org.switchboard.journal.snapshot;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A start-up state holder's side of a state snapshot (issue 20): it writes the state the journal replay
 * built as one text part and reads such a part back into a fresh holder, so that "restore, then replay
 * the events after the snapshot's seq" gives the state "replay everything" gives. The caller keeps the
 * holder still (no replay, no live change) while either runs.
 */
public interface SnapshotPart {

    /** The part's name in the snapshot file (one per holder, no spaces or newlines). */
    String partName();

    /** The holder's replayed state as text. */
    String snapshotPart();

    /**
     * Replaces the holder's replayed state by the one {@code text} describes (a fresh holder: nothing
     * replayed yet). Throws {@link IllegalArgumentException} when the text cannot be read.
     */
    void restorePart(String text);

    /** The part named {@code name} whose state {@code writer} writes and {@code reader} reads back. */
    static SnapshotPart of(String name, Supplier<String> writer, Consumer<String> reader) {
        return new SnapshotPart() {
            @Override
            public String partName() {
                return name;
            }

            @Override
            public String snapshotPart() {
                return writer.get();
            }

            @Override
            public void restorePart(String text) {
                reader.accept(text);
            }
        };
    }
}
