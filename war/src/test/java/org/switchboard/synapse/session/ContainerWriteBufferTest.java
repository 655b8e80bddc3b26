package org.switchboard.synapse.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.catalina.connector.ResponseFacade;
import org.junit.jupiter.api.Test;

class ContainerWriteBufferTest {

    /** Grizzly's output buffer as far as the resize uses it: at least 512 bytes, fixed once committed. */
    public static final class OutputBuffer {
        int size = 8192;
        boolean committed;

        public void setBufferSize(int bytes) {
            if (!committed) {
                size = Math.max(512, bytes);
            }
        }

        public int getBufferSize() {
            return size;
        }
    }

    public static final class GrizzlyResponse {
        final OutputBuffer buffer = new OutputBuffer();

        public OutputBuffer getOutputBuffer() {
            return buffer;
        }
    }

    public static final class CatalinaResponse {
        final GrizzlyResponse grizzly = new GrizzlyResponse();

        public GrizzlyResponse getCoyoteResponse() {
            return grizzly;
        }
    }

    @Test
    void resizesTheBufferBehindPayarasFacade() {
        CatalinaResponse container = new CatalinaResponse();

        assertTrue(ContainerWriteBuffer.resize(new ResponseFacade(container), 512));
        assertEquals(512, container.grizzly.buffer.size);
    }

    @Test
    void reportsFailureWhenTheBufferIgnoresTheNewSize() {
        CatalinaResponse container = new CatalinaResponse();
        container.grizzly.buffer.committed = true;

        assertFalse(ContainerWriteBuffer.resize(new ResponseFacade(container), 512));
        assertEquals(8192, container.grizzly.buffer.size);
    }

    @Test
    void leavesOtherContainersAlone() {
        assertFalse(ContainerWriteBuffer.resize(new Object(), 512));
        assertFalse(ContainerWriteBuffer.resize(null, 512));
        assertFalse(ContainerWriteBuffer.resize(new ResponseFacade(new Object()), 512));
    }
}
