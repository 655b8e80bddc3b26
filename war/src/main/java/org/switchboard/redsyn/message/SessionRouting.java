package org.switchboard.redsyn.message;

import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;

/**
 * Which session of the receiving agent a request lands in. The relay opens sessions: a new thread
 * gets a new session, {@code #new} forces one, a follow-up in a thread lands in the thread's session,
 * and if that session was closed the follow-up opens another. A request addressed to a closed
 * session is refused.
 */
public final class SessionRouting {

    /** A session as the router needs to see it. */
    public record SessionState(String sid, boolean closed) {
    }

    /** Use this existing session, or open a new one when {@code sid} is null. */
    public record Decision(String sid) {
        public boolean openNew() {
            return sid == null;
        }
    }

    private SessionRouting() {
    }

    /**
     * @param to            the receiving agent's address with its session part as sent
     * @param named         the session named in {@code to} (null if it does not exist or none named)
     * @param threadSession the session the thread already has on this agent, or null
     */
    public static Decision route(Address to, SessionState named, SessionState threadSession) {
        String asked = to.session();
        if (to.wantsNewSession()) {
            return new Decision(null);
        }
        if (asked != null) {
            if (named == null) {
                throw RedsynException.notFound("no session " + asked + " on " + to.agentPath());
            }
            if (named.closed()) {
                throw RedsynException.conflict("session " + asked + " of " + to.agentPath()
                        + " is closed; send without a session to open another");
            }
            return new Decision(named.sid());
        }
        if (threadSession != null && !threadSession.closed()) {
            return new Decision(threadSession.sid());
        }
        return new Decision(null);
    }
}
