package org.switchboard.ops.jmx;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.switchboard.ops.operator.OperatorOperations;

/**
 * Registers the operator MXBeans in the platform MBean server when the application starts and
 * unregisters them at undeploy. The beans call the operator services through {@link JmxOperations},
 * an EJB, so each JMX call (on a connector thread) runs inside a container invocation.
 */
@ApplicationScoped
public class JmxRegistration {

    private static final Logger LOG = Logger.getLogger(JmxRegistration.class.getName());

    @Inject
    OperatorOperations operator;

    private final List<ObjectName> registered = new ArrayList<>();

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        OperatorOperations ops = operator;
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (Map.Entry<String, Object> bean : OperatorMXBeans.all(ops).entrySet()) {
            try {
                ObjectName name = new ObjectName(bean.getKey());
                if (server.isRegistered(name)) {
                    server.unregisterMBean(name); // left by an earlier deployment of this application
                }
                server.registerMBean(bean.getValue(), name);
                synchronized (registered) {
                    registered.add(name);
                }
            } catch (Exception e) {
                LOG.log(Level.WARNING, "JMX: could not register " + bean.getKey(), e);
            }
        }
        LOG.info("JMX: " + registered.size() + " operator MBeans registered under org.switchboard");
    }

    @PreDestroy
    void stop() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        synchronized (registered) {
            for (ObjectName name : registered) {
                try {
                    server.unregisterMBean(name);
                } catch (Exception e) {
                    LOG.log(Level.FINE, "JMX: " + name + " already gone", e);
                }
            }
            registered.clear();
        }
    }
}
