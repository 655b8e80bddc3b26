package org.switchboard.synapse.federation.outbound;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.util.function.Predicate;

/** A {@link PeerClient} whose registrations carry this hub's identity proof ({@link PeerIdentity}). */
public final class SigningPeerClient implements PeerClient {

    private final PeerClient delegate;
    private final PeerIdentity identity;

    /** Signs every registration {@code delegate} sends with {@code identity}. */
    public SigningPeerClient(PeerClient delegate, PeerIdentity identity) {
        this.delegate = delegate;
        this.identity = identity;
    }

    @Override
    public JsonObject exchange(MessagePeers.Peer peer, JsonObject registration, JsonObject forward, String forwardId)
            throws IOException {
        return delegate.exchange(peer, identity.sign(registration), forward, forwardId);
    }

    @Override
    public JsonObject request(MessagePeers.Peer peer, JsonObject registration, JsonObject request,
                              Predicate<JsonObject> answer) throws IOException {
        return delegate.request(peer, identity.sign(registration), request, answer);
    }

    @Override
    public ConnectionStats connectionStats() {
        return delegate.connectionStats();
    }

    @Override
    public void closeIdle() {
        delegate.closeIdle();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
