package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.WebConnection;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.switchboard.container.PortableShortcuts;

class FrameGateUpgradeTest {

    /** Non-blocking input that has {@code bytes} ready in reads of at most {@code chunk} bytes. */
    private static final class ScriptedInput extends ServletInputStream {
        private final byte[] bytes;
        private final int chunk;
        private int at;
        ReadListener listener;

        ScriptedInput(byte[] bytes, int chunk) {
            this.bytes = bytes;
            this.chunk = chunk;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = Math.min(Math.min(len, chunk), bytes.length - at);
            System.arraycopy(bytes, at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public int read() {
            return at < bytes.length ? bytes[at++] & 0xff : -1;
        }

        @Override
        public int available() {
            return Math.min(chunk, bytes.length - at);
        }

        @Override
        public boolean isFinished() {
            return at == bytes.length;
        }

        @Override
        public boolean isReady() {
            return at < bytes.length;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            this.listener = listener;
        }
    }

    private static final class Connection implements WebConnection {
        final ScriptedInput input;

        Connection(ScriptedInput input) {
            this.input = input;
        }

        @Override
        public ServletInputStream getInputStream() {
            return input;
        }

        @Override
        public ServletOutputStream getOutputStream() {
            return new ServletOutputStream() {
                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                }

                @Override
                public void write(int b) {
                }
            };
        }

        @Override
        public void close() {
        }
    }

    /** Reads everything the container's handler would, the way Tyrus does: while ready, into fresh arrays. */
    private static byte[] drain(ServletInputStream in) throws Exception {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (in.isReady()) {
            int available = in.available();
            byte[] data = new byte[available == 0 ? 16384 : available];
            int n = in.read(data);
            if (n > 0) {
                read.write(data, 0, n);
            }
        }
        return read.toByteArray();
    }

    private static byte[] frame(int firstByte, int length) {
        byte[] frame = new byte[2 + 2 + 4 + length];
        frame[0] = (byte) firstByte;
        frame[1] = (byte) (0x80 | 126);
        frame[2] = (byte) (length >> 8);
        frame[3] = (byte) length;
        Arrays.fill(frame, 8, frame.length, (byte) 'q');
        return frame;
    }

    @Test
    void theContainerHandlerReadsTheClientStreamThroughTheGate() throws Exception {
        byte[] ok = frame(0x81, 1000);
        byte[] tooBig = frame(0x82, 1001);
        byte[] stream = new byte[ok.length + tooBig.length];
        System.arraycopy(ok, 0, stream, 0, ok.length);
        System.arraycopy(tooBig, 0, stream, ok.length, tooBig.length);
        ScriptedInput client = new ScriptedInput(stream, 3); // headers arrive split over reads
        // what the upgrade-frame-gate shortcut hands the WebSocket container's handler
        WebConnection gated = FrameGateUpgrade.gated(new Connection(client), 1000);
        ServletInputStream seen = gated.getInputStream();
        ReadListener listener = new ReadListener() {
            @Override
            public void onDataAvailable() {
            }

            @Override
            public void onAllDataRead() {
            }

            @Override
            public void onError(Throwable t) {
            }
        };
        seen.setReadListener(listener);
        assertSame(listener, client.listener, "the container's callbacks come from the socket's own stream");
        byte[] read = drain(seen);
        byte[] reason = FrameSizeLimit.REASON.getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(ok, Arrays.copyOf(read, ok.length), "the frame within the limit passes as sent");
        byte[] close = Arrays.copyOfRange(read, ok.length, read.length);
        assertEquals(8 + reason.length, close.length, "then only the close frame");
        assertEquals((byte) 0x88, close[0]);
        assertEquals(1009, ((close[6] & 0xff) << 8) | (close[7] & 0xff));
        assertEquals(FrameSizeLimit.REASON, new String(close, 8, reason.length, StandardCharsets.UTF_8));
        assertTrue(client.isFinished(), "the refused frame was read from the socket and dropped");
        assertFalse(seen.isReady());
    }

    @Test
    void withoutTheShortcutTheUpgradeRequestIsLeftAsItIs() {
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });
        assertSame(request, FrameGateUpgrade.gate(request, 1000, new PortableShortcuts("off")));
    }
}
