package org.switchboard.synapse.session;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.WebConnection;
import java.io.IOException;
import org.switchboard.container.ContainerShortcuts;

/**
 * Puts a {@link FrameGate} between the socket and the WebSocket container: through the container's
 * upgrade-frame-gate shortcut ({@link ContainerShortcuts#interceptUpgrade}) the WebSocket container's
 * upgrade handler is given a connection whose input passes through the gate. Installed by
 * {@code hub.HandshakeGuardFilter} through {@link #gate}; where the shortcut is off the upgrade
 * proceeds unchanged, and whole messages over the limit are still closed with 1009 by the endpoint
 * (frames over 4 MiB fail as that container decides).
 */
public final class FrameGateUpgrade {

    private FrameGateUpgrade() {
    }

    /** {@code request}, whose WebSocket upgrade will read through a gate of {@code maxMessageBytes} where the container allows. */
    public static HttpServletRequest gate(HttpServletRequest request, long maxMessageBytes, ContainerShortcuts shortcuts) {
        return shortcuts.interceptUpgrade(request, connection -> {
            // the container's upgrade handler runs next on this thread and schedules the new session's idle
            // timer on the managed executor, which scans the context loader's class path for service files
            // once per socket; with the quiet loader that scan finds nothing at once (the endpoint's
            // onOpen puts the application's loader back)
            shortcuts.quietContext();
            return gated(connection, maxMessageBytes);
        });
    }

    /** {@code connection} with its input read through a fresh gate of {@code maxMessageBytes}. */
    static WebConnection gated(WebConnection connection, long maxMessageBytes) {
        return new GatedConnection(connection, new FrameGate(maxMessageBytes));
    }

    /** The container's connection with its input read through the gate. */
    private static final class GatedConnection implements WebConnection {
        private final WebConnection connection;
        private final FrameGate gate;
        private GatedInput input;

        GatedConnection(WebConnection connection, FrameGate gate) {
            this.connection = connection;
            this.gate = gate;
        }

        @Override
        public synchronized ServletInputStream getInputStream() throws IOException {
            if (input == null) {
                input = new GatedInput(connection.getInputStream(), gate);
            }
            return input;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            return connection.getOutputStream();
        }

        @Override
        public void close() throws Exception {
            connection.close();
        }
    }

    /**
     * Non-blocking input through the gate. Bytes the gate passes wait in {@code pending} until read;
     * the WebSocket container reads while {@link #isReady()}, and a read may return 0 while the gate
     * holds back a partial frame header or swallows the rest of a refused message.
     */
    private static final class GatedInput extends ServletInputStream {
        private static final int MAX_READ = 64 * 1024;
        private final ServletInputStream in;
        private final FrameGate gate;
        private byte[] pending = new byte[0];
        private int pendingStart;
        private int pendingEnd;

        GatedInput(ServletInputStream in, FrameGate gate) {
            this.in = in;
            this.gate = gate;
        }

        private int pendingBytes() {
            return pendingEnd - pendingStart;
        }

        private void keep(byte[] bytes, int off, int len) {
            if (pendingEnd + len > pending.length) {
                int live = pendingBytes();
                byte[] grown = pending.length - live >= len ? pending : new byte[Math.max(live + len, pending.length * 2)];
                System.arraycopy(pending, pendingStart, grown, 0, live);
                pending = grown;
                pendingStart = 0;
                pendingEnd = live;
            }
            System.arraycopy(bytes, off, pending, pendingEnd, len);
            pendingEnd += len;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pendingBytes() == 0) {
                pendingStart = 0;
                pendingEnd = 0;
                // a fresh array per read, as the container does: an idle socket keeps no buffer
                byte[] read = new byte[Math.min(len, MAX_READ)];
                int n = in.read(read, 0, read.length);
                if (n <= 0) {
                    return n;
                }
                gate.accept(read, 0, n, this::keep);
            }
            int n = Math.min(len, pendingBytes());
            System.arraycopy(pending, pendingStart, b, off, n);
            pendingStart += n;
            if (pendingBytes() == 0 && pending.length > MAX_READ) {
                pending = new byte[0];
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n;
            do {
                n = read(one, 0, 1);
            } while (n == 0 && isReady());
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int available() throws IOException {
            return pendingBytes() + in.available();
        }

        @Override
        public boolean isFinished() {
            return pendingBytes() == 0 && in.isFinished();
        }

        @Override
        public boolean isReady() {
            return pendingBytes() > 0 || in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }

        @Override
        public void close() throws IOException {
            pending = new byte[0];
            in.close();
        }
    }
}
