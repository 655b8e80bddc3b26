package org.switchboard.itests.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket client on a bare TCP socket, for what the JDK client will not do: drop the
 * connection right after the handshake, stop reading while the hub keeps writing, send any frame
 * (fragments, binary, declared lengths it then streams) and report the close code; also a light
 * blocking client for the chat benchmark.
 */
public final class RawWebSocket implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String handshakeAnswer;
    private InputStream frames;
    private volatile Close close;

    /** The close frame the hub sent: its status code (-1 when it carried none) and reason. */
    public record Close(int code, String reason) {
    }

    private RawWebSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        int port = socket.getPort();
        byte[] key = new byte[16];
        ThreadLocalRandom.current().nextBytes(key);
        out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        this.handshakeAnswer = readHead(in);
    }

    /**
     * Connects to the hub on loopback {@code port} and sends the upgrade request;
     * {@code receiveBuffer} bytes of socket receive buffer (0: the system's default).
     */
    public static RawWebSocket open(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        try {
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer); // before connect, so the window is announced small
            }
            // as the Python, JavaScript and Go clients do: without it a frame written while the previous one is
            // unacknowledged waits for that ACK (Nagle), which the hub sends with its answer a commit later
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(15000);
            return new RawWebSocket(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** The status line and headers the hub answered the upgrade with. */
    public String handshakeAnswer() {
        return handshakeAnswer;
    }

    /** True when the hub switched protocols. */
    public boolean upgraded() {
        return handshakeAnswer.startsWith("HTTP/1.1 101");
    }

    /** Sends one masked text frame, as a client must (callable from any thread). */
    public void sendText(String text) throws IOException {
        byte[] frame = masked(0x81, text.getBytes(StandardCharsets.UTF_8));
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    /** How long {@link #readText()} blocks before it throws (0: for ever). */
    public void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /**
     * Reads the next whole text message after the handshake, answering pings on the way; null once the
     * hub closed the connection.
     */
    public String readText() throws IOException {
        if (frames == null) {
            frames = new BufferedInputStream(in, 64 * 1024);
        }
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
            int first = frames.read();
            int second = frames.read();
            if (first < 0 || second < 0) {
                return null;
            }
            long length = second & 0x7f;
            if (length == 126) {
                length = (readByte() << 8) | readByte();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) {
                    length = (length << 8) | readByte();
                }
            }
            if ((second & 0x80) != 0 || length > Integer.MAX_VALUE) {
                throw new IOException("a server frame must be unmasked and fit in memory");
            }
            byte[] payload = frames.readNBytes((int) length);
            if (payload.length < length) {
                return null;
            }
            int opcode = first & 0x0f;
            if (opcode == 0x9) {
                byte[] pong = masked(0x8A, payload);
                try {
                    synchronized (out) {
                        out.write(pong);
                        out.flush();
                    }
                } catch (IOException e) {
                    // the hub may already have closed its side (a ping sent just before a 1009 close): the
                    // close frame can still be waiting in our receive buffer, so keep reading for it
                }
            } else if (opcode == 0x8) {
                close = payload.length >= 2
                        ? new Close(((payload[0] & 0xff) << 8) | (payload[1] & 0xff),
                                new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8))
                        : new Close(-1, "");
                return null;
            } else if (opcode == 0x1 || opcode == 0x0) {
                message.write(payload);
                if ((first & 0x80) != 0) {
                    return message.toString(StandardCharsets.UTF_8);
                }
            }
        }
    }

    /**
     * Reads (and drops) text messages until the hub closes the connection; returns the close frame it sent,
     * or null if the connection ended without one.
     */
    public Close awaitClose() throws IOException {
        try {
            while (readText() != null) {
                // not what we wait for
            }
        } catch (IOException e) {
            if (close == null) {
                throw e;
            }
        }
        return close;
    }

    /** Sends one masked frame: {@code firstByte} is FIN and the opcode (0x81 a whole text frame, 0x02 a first binary fragment...). */
    public void sendFrame(int firstByte, byte[] payload) throws IOException {
        byte[] frame = masked(firstByte, payload);
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    /**
     * Sends a masked frame header declaring {@code length} payload bytes, then streams that many copies of
     * {@code fill} in 64 KiB writes without holding the payload in memory; stops quietly when the hub closes
     * the connection. Returns the payload bytes written.
     */
    public long streamFrame(int firstByte, long length, byte fill) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(14);
        head.write(firstByte);
        writeLength(head, length);
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        head.write(mask, 0, 4);
        byte[] chunk = new byte[64 * 1024]; // a multiple of 4: every chunk starts at mask byte 0
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) (fill ^ mask[i & 3]);
        }
        long written = 0;
        try {
            synchronized (out) {
                out.write(head.toByteArray());
                while (written < length) {
                    int n = (int) Math.min(chunk.length, length - written);
                    out.write(chunk, 0, n);
                    written += n;
                }
                out.flush();
            }
        } catch (IOException e) {
            // the hub closed the connection part way: what it answered is read with awaitClose
        }
        return written;
    }

    private int readByte() throws IOException {
        int b = frames.read();
        if (b < 0) {
            throw new EOFException("connection closed inside a frame header");
        }
        return b;
    }

    /** Makes {@link #close()} reset the connection instead of closing it, as a client that vanishes. */
    public void resetOnClose() throws IOException {
        socket.setSoLinger(true, 0);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Reads an HTTP response head up to and including its blank line (the handshake answer). */
    public static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** The second header byte (mask bit set) and any extended length. */
    private static void writeLength(ByteArrayOutputStream frame, long length) {
        if (length < 126) {
            frame.write(0x80 | (int) length);
        } else if (length <= 0xFFFF) {
            frame.write(0x80 | 126);
            frame.write((int) (length >> 8));
            frame.write((int) (length & 0xff));
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) (length >>> shift) & 0xff);
            }
        }
    }

    private static byte[] masked(int firstByte, byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write(firstByte);
        writeLength(frame, payload.length);
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.write(mask, 0, 4);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        return frame.toByteArray();
    }
}
