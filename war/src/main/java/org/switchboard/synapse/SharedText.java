package org.switchboard.synapse;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One frame's text that many sockets get (a broadcast, a chat every socket sees): its UTF-8 is encoded
 * once, by the first write that needs it, and the same bytes serve every other socket's write. Carrying
 * the bytes with the frame, instead of looking them up by the text in a cache, keeps the encoding at one
 * per broadcast however many frames wait in the sockets' queues (issue 20's connection storm).
 */
public final class SharedText {

    private final String text;
    /** Set once by whichever write encodes first; a racing second encoding yields equal bytes. */
    private volatile byte[] utf8;

    /** The frame's encoded JSON text. */
    public SharedText(String text) {
        this.text = Objects.requireNonNull(text, "text");
    }

    /** The frame's text. */
    public String text() {
        return text;
    }

    /** The text's UTF-8, encoded on first use; shared by every write, so nobody may change it. */
    public byte[] utf8() {
        byte[] bytes = utf8;
        if (bytes == null) {
            bytes = text.getBytes(StandardCharsets.UTF_8);
            utf8 = bytes;
        }
        return bytes;
    }

    /** Whether a write encoded the text already. */
    public boolean encoded() {
        return utf8 != null;
    }
}
