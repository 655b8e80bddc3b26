package org.switchboard.synapse.query;

import org.switchboard.synapse.Connection;

/** The roster of a peer hub for {@code who_request} with {@code hub} (synapse-advanced §4.8); implemented by cross-hub forwarding. */
public interface RemoteRoster {

    /** Answers the requester with the peer's {@code who_snapshot} or a private error; blocks on the peer (run off the socket). */
    void roster(Connection connection, String requester, String hubId);
}
