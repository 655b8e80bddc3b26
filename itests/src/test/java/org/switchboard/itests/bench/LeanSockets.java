package org.switchboard.itests.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many WebSocket client sockets read by one selector thread, for benchmarks that need hundreds or
 * thousands of sockets on a 2-core machine: a frame is counted by its header and the few payload
 * bytes that name its type and its agent, never decoded as a whole, so the client's CPU stays small
 * next to the hub's.
 */
final class LeanSockets implements AutoCloseable {

    /** Payload bytes kept from a frame's start: enough for the hub's {@code "type"} member. */
    private static final int HEAD = 96;
    /** Payload bytes kept from a frame's end: enough for {@code "agent":"<name>"}} of a presence frame. */
    private static final int TAIL = 96;
    private static final byte[] CHAT = "\"type\":\"chat\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PRESENCE = "\"type\":\"presence_update\"".getBytes(StandardCharsets.US_ASCII);

    /** Chat frames received by every socket. */
    final AtomicLong chats = new AtomicLong();
    /** {@code presence_update} frames received by every socket. */
    final AtomicLong presences = new AtomicLong();
    /** Other text frames received. */
    final AtomicLong others = new AtomicLong();
    /** Sockets the hub closed or that failed. */
    final AtomicLong closed = new AtomicLong();

    private final int port;
    private final Selector selector;
    private final Thread reader;
    private final ConcurrentLinkedQueue<Client> toRegister = new ConcurrentLinkedQueue<>();
    private final List<Client> clients = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    private volatile boolean running = true;

    /** What one socket's owner hears about it (called on the reader thread; keep it short). */
    interface Listener {
        /** A chat frame arrived at this socket. */
        default void chat(Client client) {
        }

        /** This socket received the {@code joined} presence of its own name. */
        default void joined(Client client) {
        }
    }

    /** One socket and its frame parser's state. */
    static final class Client {
        final String name;
        final SocketChannel channel;
        final Listener listener;
        private final byte[] ownJoin;
        private final ByteBuffer in = ByteBuffer.allocate(32 * 1024);
        private final byte[] head = new byte[HEAD];
        private final byte[] tail = new byte[TAIL];
        private final byte[] header = new byte[14];
        private int headerHave;
        private int headerNeed = 2;
        private long payloadLeft = -1;
        private long payloadLength;
        private int opcode;
        private byte[] control;
        private volatile boolean joined;
        /** Set before {@link #closeAll} closes it, so the reader does not count the end as the hub's. */
        private volatile boolean closedHere;

        Client(String name, SocketChannel channel, Listener listener) {
            this.name = name;
            this.channel = channel;
            this.listener = listener;
            this.ownJoin = ("\"agent\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
        }

        boolean joined() {
            return joined;
        }
    }

    LeanSockets(int port) throws IOException {
        this.port = port;
        this.selector = Selector.open();
        this.reader = new Thread(this::readLoop, "lean-sockets-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens and upgrades one socket (blocking handshake), then hands it to the reader thread. */
    Client open(String name, Listener listener) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(new InetSocketAddress("127.0.0.1", port));
            byte[] key = new byte[16];
            ThreadLocalRandom.current().nextBytes(key);
            writeFully(channel, ByteBuffer.wrap(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: "
                    + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1)));
            String answer = readHead(channel);
            if (!answer.startsWith("HTTP/1.1 101")) {
                throw new IOException("upgrade refused: " + answer.lines().findFirst().orElse(""));
            }
            channel.configureBlocking(false);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        Client client = new Client(name, channel, listener);
        clients.add(client);
        toRegister.add(client);
        selector.wakeup();
        return client;
    }

    /** Sends the registration heartbeat of {@code client}'s name. */
    void register(Client client) throws IOException {
        send(client, "{\"type\":\"heartbeat\",\"target\":\"System\",\"payload\":\"online\",\"sender\":\"" + client.name + "\"}");
    }

    /** Sends one masked text frame (any thread; one sender per socket at a time). */
    void send(Client client, String text) throws IOException {
        writeFully(client.channel, ByteBuffer.wrap(masked(0x81, text.getBytes(StandardCharsets.UTF_8))));
    }

    int size() {
        return clients.size();
    }

    /** Closes every socket opened so far (abruptly: the hub sees the connection end). */
    void closeAll() {
        List<Client> all;
        synchronized (clients) {
            all = List.copyOf(clients);
        }
        for (Client c : all) {
            c.closedHere = true;
            try {
                c.channel.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        clients.clear();
    }

    @Override
    public void close() {
        running = false;
        closeAll();
        selector.wakeup();
        try {
            reader.join(5000);
            selector.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // done
        }
    }

    private void readLoop() {
        while (running) {
            try {
                selector.select(200);
                Client pending;
                while ((pending = toRegister.poll()) != null) {
                    try {
                        pending.channel.register(selector, SelectionKey.OP_READ, pending);
                    } catch (IOException e) {
                        closed.incrementAndGet();
                    }
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Client client = (Client) key.attachment();
                    try {
                        if (!read(client)) {
                            key.cancel();
                            client.channel.close();
                            countClose(client);
                        }
                    } catch (IOException e) {
                        key.cancel();
                        countClose(client);
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException | RuntimeException e) {
                if (running) {
                    System.err.println("LeanSockets reader: " + e);
                }
            }
        }
    }

    /** Counts a socket that ended, unless {@link #closeAll} closed it (the reader then races the close). */
    private void countClose(Client client) {
        if (!client.closedHere) {
            closed.incrementAndGet();
        }
    }

    /** Reads what the socket has and parses every frame in it; false once the socket ended. */
    private boolean read(Client c) throws IOException {
        while (true) {
            c.in.clear();
            int n = c.channel.read(c.in);
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                return true;
            }
            c.in.flip();
            if (!parse(c)) {
                return false;
            }
        }
    }

    private boolean parse(Client c) throws IOException {
        ByteBuffer in = c.in;
        while (in.hasRemaining()) {
            if (c.payloadLeft < 0) {
                while (c.headerHave < c.headerNeed && in.hasRemaining()) {
                    c.header[c.headerHave++] = in.get();
                    if (c.headerHave == 2) {
                        int len = c.header[1] & 0x7f;
                        c.headerNeed = len == 126 ? 4 : len == 127 ? 10 : 2;
                    }
                }
                if (c.headerHave < c.headerNeed) {
                    return true;
                }
                int len = c.header[1] & 0x7f;
                long length = len;
                if (len == 126) {
                    length = ((c.header[2] & 0xff) << 8) | (c.header[3] & 0xff);
                } else if (len == 127) {
                    length = 0;
                    for (int i = 2; i < 10; i++) {
                        length = (length << 8) | (c.header[i] & 0xff);
                    }
                }
                c.opcode = c.header[0] & 0x0f;
                c.payloadLength = length;
                c.payloadLeft = length;
                c.headerHave = 0;
                c.headerNeed = 2;
                c.control = c.opcode >= 8 ? new byte[(int) length] : null;
            }
            int take = (int) Math.min(in.remaining(), c.payloadLeft);
            int start = in.position();
            long offset = c.payloadLength - c.payloadLeft; // payload index of the chunk's first byte
            if (c.control != null) {
                in.get(c.control, (int) offset, take);
            } else {
                byte[] array = in.array();
                int base = in.arrayOffset() + start;
                for (int i = 0; i < take && offset + i < HEAD; i++) {
                    c.head[(int) (offset + i)] = array[base + i];
                }
                long afterChunk = c.payloadLeft - take;
                // bytes whose distance from the payload's end is at most TAIL land at TAIL - distance
                for (int i = Math.max(0, take - (int) Math.min(TAIL, take)); i < take; i++) {
                    long distance = afterChunk + (take - i);
                    if (distance <= TAIL) {
                        c.tail[(int) (TAIL - distance)] = array[base + i];
                    }
                }
                in.position(start + take);
            }
            c.payloadLeft -= take;
            if (c.payloadLeft == 0) {
                c.payloadLeft = -1;
                if (!frameDone(c)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean frameDone(Client c) throws IOException {
        switch (c.opcode) {
            case 0x8:
                return false;
            case 0x9:
                writeFully(c.channel, ByteBuffer.wrap(masked(0x8A, c.control)));
                return true;
            case 0xA:
                return true;
            default:
                break;
        }
        int headLength = (int) Math.min(HEAD, c.payloadLength);
        if (contains(c.head, headLength, CHAT)) {
            chats.incrementAndGet();
            c.listener.chat(c);
        } else if (contains(c.head, headLength, PRESENCE)) {
            presences.incrementAndGet();
            if (!c.joined && endsWith(c.tail, (int) Math.min(TAIL, c.payloadLength), c.ownJoin)) {
                c.joined = true;
                c.listener.joined(c);
            }
        } else {
            others.incrementAndGet();
        }
        return true;
    }

    private static boolean contains(byte[] bytes, int length, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** True when the last {@code length} bytes kept in {@code tail} end with {@code suffix}. */
    private static boolean endsWith(byte[] tail, int length, byte[] suffix) {
        if (suffix.length > length) {
            return false;
        }
        for (int i = 0; i < suffix.length; i++) {
            if (tail[TAIL - suffix.length + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    private static void writeFully(SocketChannel channel, ByteBuffer bytes) throws IOException {
        synchronized (channel) {
            while (bytes.hasRemaining()) {
                if (channel.write(bytes) == 0) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    private static String readHead(SocketChannel channel) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("connection closed during the handshake: " + head);
            }
            head.append((char) (one.get(0) & 0xff));
        }
        return head.toString();
    }

    private static byte[] masked(int first, byte[] payload) {
        int headerLength = payload.length < 126 ? 2 : payload.length <= 0xFFFF ? 4 : 10;
        byte[] frame = new byte[headerLength + 4 + payload.length];
        frame[0] = (byte) first;
        if (payload.length < 126) {
            frame[1] = (byte) (0x80 | payload.length);
        } else if (payload.length <= 0xFFFF) {
            frame[1] = (byte) (0x80 | 126);
            frame[2] = (byte) (payload.length >>> 8);
            frame[3] = (byte) payload.length;
        } else {
            frame[1] = (byte) (0x80 | 127);
            for (int i = 0; i < 8; i++) {
                frame[2 + i] = (byte) ((long) payload.length >>> (56 - 8 * i));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        System.arraycopy(mask, 0, frame, headerLength, 4);
        for (int i = 0; i < payload.length; i++) {
            frame[headerLength + 4 + i] = (byte) (payload[i] ^ mask[i & 3]);
        }
        return frame;
    }
}
