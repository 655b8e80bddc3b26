package org.switchboard.redsyn.inbox;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;

/** Test fixture: real loopback connections (a client socket and the server's non-blocking channel) and a running watch. */
final class Loopback implements AutoCloseable {

    /** One connection: what the client holds, and the channel a server would have parked a poll on. */
    record Pair(Socket client, SocketChannel server) {

        void closeClient() throws IOException {
            client.close();
        }

        void resetClient() throws IOException {
            client.setSoLinger(true, 0);
            client.close();
        }
    }

    final ExecutorService callbacks = Executors.newSingleThreadExecutor();
    final ConnectionWatch watch;
    private final ServerSocketChannel listener;
    private final List<AutoCloseable> open = new ArrayList<>();

    Loopback() throws IOException {
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "connection-watch-test");
            t.setDaemon(true);
            return t;
        };
        watch = new ConnectionWatch(daemons, callbacks);
        listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
    }

    Pair connect() throws IOException {
        Socket client = new Socket();
        client.connect(listener.getLocalAddress());
        SocketChannel server = listener.accept();
        server.configureBlocking(false);
        open.add(client);
        open.add(server);
        return new Pair(client, server);
    }

    /** Waits (up to 5 s) for a condition that follows from packets on loopback. */
    static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Override
    public void close() throws Exception {
        watch.close();
        callbacks.shutdownNow();
        for (AutoCloseable c : open) {
            c.close();
        }
        listener.close();
    }
}
