package org.switchboard.itests.fuzz;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

/**
 * A WebSocket client on a bare TCP socket for the fuzzer: sends any text or binary payload (also ones
 * the JDK client refuses, such as invalid UTF-8 or frames of many MiB) and reports the close code the
 * hub ends the connection with.
 */
final class FuzzSocket implements AutoCloseable {

    /** A message from the hub: text, or the close code when {@code closed}. */
    record Incoming(String text, boolean closed, int closeCode, String closeReason) {
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final Random maskRandom = new Random();

    private FuzzSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        byte[] key = new byte[16];
        maskRandom.nextBytes(key);
        out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + socket.getPort() + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        String head = org.switchboard.itests.support.RawWebSocket.readHead(in);
        if (!head.startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("upgrade refused: " + head.lines().findFirst().orElse(""));
        }
    }

    /** Connects to the hub on loopback {@code port} and completes the upgrade. */
    static FuzzSocket open(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(20_000);
            return new FuzzSocket(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one message with the given opcode (1 text, 2 binary), split into {@code fragments} frames. */
    void send(int opcode, byte[] payload, int fragments) throws IOException {
        int parts = Math.max(1, Math.min(fragments, Math.max(1, payload.length)));
        int size = (payload.length + parts - 1) / Math.max(1, parts);
        int offset = 0;
        ByteArrayOutputStream wire = new ByteArrayOutputStream(payload.length + 14 * parts);
        for (int i = 0; i < parts; i++) {
            int end = i == parts - 1 ? payload.length : Math.min(payload.length, offset + size);
            boolean fin = i == parts - 1;
            int first = (fin ? 0x80 : 0) | (i == 0 ? opcode : 0);
            writeFrame(wire, first, payload, offset, end - offset);
            offset = end;
        }
        out.write(wire.toByteArray());
        out.flush();
    }

    void sendText(String text) throws IOException {
        send(1, text.getBytes(StandardCharsets.UTF_8), 1);
    }

    /**
     * Reads the next text message (answering pings), or the close; a read timeout yields null.
     * A connection dropped without a close frame reports close code -1.
     */
    Incoming read() throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
            int first;
            try {
                first = in.read();
            } catch (SocketTimeoutException e) {
                return null;
            } catch (IOException e) {
                return new Incoming(null, true, -1, String.valueOf(e.getMessage()));
            }
            if (first < 0) {
                return new Incoming(null, true, -1, "connection dropped without a close frame");
            }
            int second = readByte();
            long length = second & 0x7f;
            if (length == 126) {
                length = (readByte() << 8) | readByte();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) {
                    length = (length << 8) | readByte();
                }
            }
            if ((second & 0x80) != 0 || length > 256L * 1024 * 1024) {
                throw new IOException("a server frame must be unmasked and fit in memory");
            }
            byte[] payload = in.readNBytes((int) length);
            if (payload.length < length) {
                return new Incoming(null, true, -1, "connection dropped inside a frame");
            }
            int opcode = first & 0x0f;
            if (opcode == 0x9) {
                ByteArrayOutputStream pong = new ByteArrayOutputStream();
                writeFrame(pong, 0x8A, payload, 0, payload.length);
                try {
                    out.write(pong.toByteArray());
                    out.flush();
                } catch (IOException closedForWriting) {
                    // the hub closed while this side was still sending (an oversized frame): its close frame
                    // may still be waiting to be read, so keep reading rather than report the write
                }
            } else if (opcode == 0x8) {
                int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
                String reason = payload.length > 2 ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                return new Incoming(null, true, code, reason);
            } else if (opcode == 0x1 || opcode == 0x2 || opcode == 0x0) {
                message.write(payload);
                if ((first & 0x80) != 0) {
                    return new Incoming(message.toString(StandardCharsets.UTF_8), false, 0, null);
                }
            }
        }
    }

    void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed inside a frame header");
        }
        return b;
    }

    private void writeFrame(ByteArrayOutputStream frame, int firstByte, byte[] payload, int offset, int length) {
        frame.write(firstByte);
        if (length < 126) {
            frame.write(0x80 | length);
        } else if (length <= 0xFFFF) {
            frame.write(0x80 | 126);
            frame.write(length >> 8);
            frame.write(length & 0xff);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) length >>> shift) & 0xff);
            }
        }
        byte[] mask = new byte[4];
        maskRandom.nextBytes(mask);
        frame.write(mask, 0, 4);
        for (int i = 0; i < length; i++) {
            frame.write(payload[offset + i] ^ mask[i & 3]);
        }
    }
}
