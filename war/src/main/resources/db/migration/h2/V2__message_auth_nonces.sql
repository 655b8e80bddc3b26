-- Switchboard schema, version 2 (H2): the durable replay store of SYNAPSE per-message authentication
-- (synapse-advanced §6.3; entity org.switchboard.synapse.messageauth.MessageAuthNonceEntity). One row per
-- accepted nonce, keyed by SHA-256 hex of (scheme, key id, sender, nonce); rows past expires_at are pruned.

CREATE TABLE synapse_message_auth_nonce (
    nonce_id VARCHAR(64) NOT NULL,
    expires_at double precision NOT NULL,
    CONSTRAINT synapse_message_auth_nonce_pkey PRIMARY KEY (nonce_id)
);
