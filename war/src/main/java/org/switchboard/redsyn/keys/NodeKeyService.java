package org.switchboard.redsyn.keys;

import org.switchboard.json.Jsons;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.address.Address;
import org.switchboard.redsyn.crypto.EncryptionKeys;
import org.switchboard.redsyn.directory.AgentEntity;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.AgentService;
import org.switchboard.redsyn.directory.Caller;
import org.switchboard.redsyn.directory.NodeEntity;
import org.switchboard.redsyn.directory.PresenceTracker;
import org.switchboard.redsyn.webhook.WebhookRegistry;

/**
 * Node keys: {@code PUT /nodes/key}, the signing key a node's signatures are checked with, and
 * {@code GET /agents/{…}/key} (the keys of the node that last listened for an agent).
 */
@ApplicationScoped
@Transactional
public class NodeKeyService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    WebhookRegistry webhooks;

    @Inject
    AgentService agents;

    @Inject
    PresenceTracker presence;

    /** {@code PUT /nodes/key}: registers (or, with rotate, replaces) the calling node's public keys. */
    public JsonObject register(Caller caller, JsonObject body) {
        KeyRegistration.Request request = KeyRegistration.parse(body);
        // locked so that two concurrent first registrations cannot both skip the rotate rule
        NodeEntity node = em.find(NodeEntity.class, caller.nodeId(), LockModeType.PESSIMISTIC_WRITE);
        if (node == null) {
            throw RedsynException.unauthorized("unknown node");
        }
        KeyRegistration.Keys keys = KeyRegistration.decide(node.getSigningKey(), request);
        node.registerKeys(keys.signingKey(), keys.encKey(), keys.encSig(), keys.fingerprint(), System.currentTimeMillis());
        JsonObjectBuilder b = Jsons.PROVIDER.createObjectBuilder()
                .add("node", node.getName())
                .add("public_key", keys.signingKey())
                .add("fingerprint", keys.fingerprint())
                .add("rotated", keys.rotated());
        if (keys.encKey() != null) {
            b.add("enc_key", keys.encKey()).add("enc_sig", keys.encSig());
        } else {
            b.addNull("enc_key").addNull("enc_sig");
        }
        return b.build();
    }

    /** The signing key a node registered (base64url as sent), or null when it has none. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public String signingKey(long nodeId) {
        NodeEntity node = em.find(NodeEntity.class, nodeId);
        return node == null ? null : node.getSigningKey();
    }

    /**
     * {@code GET /agents/{…}/key}: {node, signing_key, enc_key, enc_sig, fingerprint} of the node that
     * last listened for the agent. 404 when the caller may not see the agent (same rule as
     * {@code GET /agents/…}), or when that node registered no encryption key.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public JsonObject agentKey(Caller caller, Address address) {
        AgentInfo agent = agents.info(address.agentPath());
        if (agent == null || !agents.mayView(caller.personId(), agent)) {
            throw RedsynException.notFound("no agent " + address.agentPath());
        }
        NodeEntity node = publishedKeyNode(agent.id());
        if (node == null) {
            throw RedsynException.notFound(address.agentPath() + " has no encryption key: "
                    + (webhooks.has(agent.id()) ? "it is served by a webhook" : "the node that listens for it registered none"));
        }
        return EncryptionKeys.agentKey(node.getName(), node.getSigningKey(), node.getEncKey(), node.getEncSig());
    }

    /** The node whose key {@code GET /agents/{…}/key} answers with for this agent now, or null when there is none. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public NodeEntity publishedKeyNode(long agentId) {
        if (webhooks.has(agentId)) {
            // the document: an agent served by a webhook has no key (its deliveries are not sealed)
            return null;
        }
        AgentEntity entity = em.find(AgentEntity.class, agentId);
        if (entity == null) {
            return null;
        }
        PresenceTracker.Seen seen = presence.lastSeen(agentId);
        String name = ListeningNode.of(seen == null ? 0 : seen.at(), seen == null ? null : seen.node(),
                entity.getLastSeen(), entity.getLastNode());
        if (name == null) {
            return null;
        }
        List<NodeEntity> nodes = em.createNamedQuery("Node.byPersonAndName", NodeEntity.class)
                .setParameter("person", entity.getOwnerPersonId()).setParameter("name", name).getResultList();
        if (nodes.isEmpty() || nodes.get(0).getEncKey() == null || nodes.get(0).getSigningKey() == null) {
            return null;
        }
        return nodes.get(0);
    }
}
