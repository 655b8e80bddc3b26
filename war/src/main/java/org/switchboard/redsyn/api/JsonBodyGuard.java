package org.switchboard.redsyn.api;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.switchboard.redsyn.RedsynException;

/**
 * Reads a REDSYN request body through to the JSON parser and refuses it the moment it breaks a bound,
 * so nothing unbounded is ever buffered or parsed: more bytes than allowed (413), nesting deeper than
 * allowed or a number literal longer than allowed (400), a complete top-level value that is not an object
 * (422; an incomplete one is left to the parser's 400).
 * One linear pass over the bytes; structural characters are ASCII, so UTF-8 needs no decoding here.
 * The value of a top-level {@code files} member has its own budget (the base64 zip of a send).
 */
public final class JsonBodyGuard extends FilterInputStream {

    /** The bounds: bytes outside a top-level {@code files} member, bytes of that member, nesting depth, number length. */
    public record Limits(long maxBytes, long maxFilesBytes, int maxDepth, int maxNumberChars) {

        /** Most bytes a body within these limits can have. */
        public long maxTotalBytes() {
            return maxBytes + maxFilesBytes;
        }
    }

    private static final byte[] FILES = {'f', 'i', 'l', 'e', 's'};

    private final Limits limits;
    private long bytes;
    private long filesBytes;
    private boolean started;
    /** The top-level value has ended: only whitespace may follow. */
    private boolean ended;
    /**
     * The top-level value is not an object: its first byte, refused (422) once the value is complete,
     * so that malformed JSON stays the parser's 400.
     */
    private byte notObject;
    private int literalLength;
    private boolean topNumber;
    private int depth;
    private boolean inString;
    private boolean escaped;
    private int numberRun;
    /** Inside the top-level object: the next string is a member name. */
    private boolean nameNext;
    /** The member name being read matches "files" so far (-1: it does not). */
    private int nameMatch = -1;
    private boolean readingName;
    private boolean lastNameIsFiles;
    private boolean inFilesValue;

    public JsonBodyGuard(InputStream in, Limits limits) {
        super(in);
        this.limits = limits;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            scan((byte) b);
        } else {
            end();
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        for (int i = 0; i < n; i++) {
            scan(buffer[offset + i]);
        }
        if (n < 0) {
            end();
        }
        return n;
    }

    private void end() {
        if (topNumber) {
            throw notAnObject();
        }
        if (depth > 0 || inString) {
            // Refused here rather than by the parser: binding a truncated body to a record made the JSON-B
            // runtime skip an unknown member's unfinished object forever (a request thread spinning at 100%).
            throw RedsynException.badRequest("invalid JSON: the body ends inside " + (inString ? "a string" : "an object or array"));
        }
    }

    @Override
    public long skip(long n) throws IOException {
        // every byte must pass the scan: skipping reads
        byte[] sink = new byte[(int) Math.min(8192, Math.max(n, 0))];
        long skipped = 0;
        while (skipped < n) {
            int r = read(sink, 0, (int) Math.min(sink.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public synchronized void mark(int readlimit) {
        // not supported: a reset would scan bytes twice
    }

    @Override
    public synchronized void reset() throws IOException {
        throw new IOException("mark/reset not supported");
    }

    private void scan(byte b) {
        if (inFilesValue) {
            if (++filesBytes > limits.maxFilesBytes()) {
                throw new RedsynException(413, "files larger than " + (limits.maxFilesBytes() / 1024) + " KB of JSON text");
            }
        } else if (++bytes > limits.maxBytes()) {
            throw new RedsynException(413, "request body larger than " + (limits.maxBytes() / 1024) + " KB");
        }
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (b == '\\') {
                escaped = true;
                nameMatch = -1;
            } else if (b == '"') {
                inString = false;
                if (notObject != 0 && depth == 0) {
                    throw notAnObject();
                }
                if (readingName) {
                    readingName = false;
                    lastNameIsFiles = nameMatch == FILES.length;
                }
            } else if (readingName && nameMatch >= 0) {
                nameMatch = nameMatch < FILES.length && FILES[nameMatch] == b ? nameMatch + 1 : -1;
            }
            return;
        }
        if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
            numberRun = 0;
            if (topNumber) {
                throw notAnObject();
            }
            return;
        }
        if (ended) {
            throw RedsynException.badRequest("invalid JSON: text after the JSON value");
        }
        if (!started) {
            started = true;
            if (b != '{' && startsJsonValue(b)) {
                notObject = b;
            }
        }
        if (depth == 0 && (notObject == 't' || notObject == 'n' || notObject == 'f')) {
            // null, true, false: complete after their last letter
            if (++literalLength == (notObject == 'f' ? 5 : 4)) {
                throw notAnObject();
            }
            return;
        }
        if ((b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E') {
            if (++numberRun > limits.maxNumberChars()) {
                throw RedsynException.badRequest("invalid JSON: a number longer than " + limits.maxNumberChars() + " characters");
            }
            topNumber = depth == 0 && notObject != 0;
            return;
        }
        numberRun = 0;
        switch (b) {
            case '"' -> {
                inString = true;
                if (depth == 1 && nameNext) {
                    readingName = true;
                    nameMatch = 0;
                }
            }
            case '{', '[' -> {
                if (++depth > limits.maxDepth()) {
                    throw RedsynException.badRequest("invalid JSON: nested deeper than " + limits.maxDepth() + " levels");
                }
                if (depth == 1) {
                    nameNext = b == '{';
                }
            }
            case '}', ']' -> {
                depth--;
                if (depth <= 0) {
                    if (notObject != 0) {
                        throw notAnObject();
                    }
                    inFilesValue = false;
                    ended = true;
                }
            }
            case ':' -> {
                if (depth == 1) {
                    nameNext = false;
                    inFilesValue = lastNameIsFiles && limits.maxFilesBytes() > 0;
                }
            }
            case ',' -> {
                if (depth == 1) {
                    nameNext = true;
                    inFilesValue = false;
                    lastNameIsFiles = false;
                }
            }
            default -> {
                // letters of true/false/null, or bytes the parser will refuse
            }
        }
    }

    private static RedsynException notAnObject() {
        return RedsynException.unprocessable("the body must be a JSON object");
    }

    private static boolean startsJsonValue(byte b) {
        return b == '[' || b == '"' || b == '-' || (b >= '0' && b <= '9') || b == 't' || b == 'f' || b == 'n';
    }
}
