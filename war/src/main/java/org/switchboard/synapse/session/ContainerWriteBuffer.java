package org.switchboard.synapse.session;

import jakarta.servlet.ServletResponseWrapper;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sets the size of Payara's per-connection output buffer on a WebSocket upgrade, before the upgrade
 * commits the response. Payara (Grizzly) copies every write smaller than that buffer into a freshly
 * allocated one of full size (8 KiB by default), and passes larger writes to the socket as they
 * are; for SYNAPSE's few-hundred-byte frames that copy was half of all the hub allocated under
 * load (measured with JFR, see benchmarks.md). The servlet API can only grow the buffer, so this
 * reaches Grizzly's own output buffer: the facade's wrapped response (one private field) and from
 * there public methods. On any other container, or if those internals change, it does nothing.
 */
public final class ContainerWriteBuffer {

    private static final Logger LOG = Logger.getLogger(ContainerWriteBuffer.class.getName());
    private static final String FACADE = "org.apache.catalina.connector.ResponseFacade";

    private ContainerWriteBuffer() {
    }

    /** Resizes the buffer behind {@code response} to {@code bytes}; returns whether it could. */
    public static boolean resize(Object response, int bytes) {
        Object unwrapped = response;
        while (unwrapped instanceof ServletResponseWrapper wrapper) {
            unwrapped = wrapper.getResponse();
        }
        try {
            Object catalinaResponse = wrappedResponse(unwrapped);
            if (catalinaResponse == null) {
                return false;
            }
            Object grizzlyResponse = catalinaResponse.getClass().getMethod("getCoyoteResponse").invoke(catalinaResponse);
            Object outputBuffer = grizzlyResponse.getClass().getMethod("getOutputBuffer").invoke(grizzlyResponse);
            Method setBufferSize = outputBuffer.getClass().getMethod("setBufferSize", int.class);
            setBufferSize.invoke(outputBuffer, bytes);
            Object size = outputBuffer.getClass().getMethod("getBufferSize").invoke(outputBuffer);
            return Integer.valueOf(Math.max(bytes, 512)).equals(size);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.FINE, "container output buffer not resized", e);
            return false;
        }
    }

    private static Object wrappedResponse(Object facade) throws ReflectiveOperationException {
        for (Class<?> type = facade.getClass(); type != null; type = type.getSuperclass()) {
            if (FACADE.equals(type.getName())) {
                Field field = type.getDeclaredField("response");
                field.setAccessible(true);
                return field.get(facade);
            }
        }
        return null;
    }
}
