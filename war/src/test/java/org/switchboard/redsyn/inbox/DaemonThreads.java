package org.switchboard.redsyn.inbox;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.lang.reflect.Proxy;

/** A managed thread factory for unit tests, outside a container: plain daemon threads with one name. */
final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A factory whose only working method, {@code newThread}, makes daemon threads called {@code name}. */
    static ManagedThreadFactory named(String name) {
        return (ManagedThreadFactory) Proxy.newProxyInstance(DaemonThreads.class.getClassLoader(),
                new Class<?>[] {ManagedThreadFactory.class}, (proxy, method, args) -> {
                    if (method.getName().equals("newThread")) {
                        Thread t = new Thread((Runnable) args[0], name);
                        t.setDaemon(true);
                        return t;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
