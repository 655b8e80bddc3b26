package org.switchboard.ops.jmx;

import java.security.AccessController;
import java.security.Principal;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;

/**
 * Who is calling an MBean: the authenticated remote JMX user ({@code jmx:<name>}), taken from the
 * {@link Subject} the JMX connector runs the call under; {@code jmx} for a local (in-process or
 * attach) call, which carries no subject.
 */
public final class JmxPrincipal {

    private JmxPrincipal() {
    }

    /** The principal of the current MBean call. */
    @SuppressWarnings("removal") // Subject.current() arrives in Java 18; this hub targets 17, where this is the way
    public static String current() {
        Subject subject = Subject.getSubject(AccessController.getContext());
        return of(subject);
    }

    /** {@code jmx:<name>} of the subject's {@link JMXPrincipal} (any principal when there is none), else {@code jmx}. */
    static String of(Subject subject) {
        if (subject == null) {
            return "jmx";
        }
        for (JMXPrincipal p : subject.getPrincipals(JMXPrincipal.class)) {
            return "jmx:" + p.getName();
        }
        for (Principal p : subject.getPrincipals()) {
            return "jmx:" + p.getName();
        }
        return "jmx";
    }
}
