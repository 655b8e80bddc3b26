-- Switchboard schema, version 5 (PostgreSQL): the receiving side of cross-hub features (issue 18).
-- federation_inbound: the inbound forward ledger of synapse-advanced §4.5, one row per accepted
-- (origin hub, forward_id) with its request digest and result; repeats are answered from it.
CREATE TABLE federation_inbound (
    ledger_key VARCHAR(200) NOT NULL,
    origin_hub VARCHAR(64) NOT NULL,
    forward_id VARCHAR(128) NOT NULL,
    kind VARCHAR(32) NOT NULL,
    request_digest VARCHAR(64) NOT NULL,
    result_json VARCHAR(262144) NOT NULL,
    received_at double precision NOT NULL,
    CONSTRAINT federation_inbound_pkey PRIMARY KEY (ledger_key)
);

-- attachment_peer_audit: the private owner audit of peer attachment requests (synapse-advanced §5.4),
-- the latest 256 rows (older ones deleted in the transaction of each insert).
CREATE TABLE attachment_peer_audit (
    sequence_no bigint NOT NULL,
    read_at double precision NOT NULL,
    recipient VARCHAR(128) NOT NULL,
    scope VARCHAR(128) NOT NULL,
    digest VARCHAR(64) NOT NULL,
    action VARCHAR(8) NOT NULL,
    allowed boolean NOT NULL,
    CONSTRAINT attachment_peer_audit_pkey PRIMARY KEY (sequence_no)
);
