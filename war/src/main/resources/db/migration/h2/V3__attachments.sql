-- Switchboard schema, version 3: the scoped-attachment ledger (synapse-advanced §3) in the hub's own
-- database instead of the reference's separate SQLite file (synapse-conformance.md). The bytes stay
-- in the attachment directory; these rows are the objects, their references and the open uploads.

CREATE TABLE attachment_object (
    scope VARCHAR(64) NOT NULL,
    digest VARCHAR(64) NOT NULL,
    byte_length bigint NOT NULL,
    media_type VARCHAR(209) NOT NULL,
    provenance VARCHAR(256) NOT NULL,
    expires_at double precision NOT NULL,
    CONSTRAINT attachment_object_pkey PRIMARY KEY (scope, digest)
);

CREATE TABLE attachment_ref (
    ref_id VARCHAR(64) NOT NULL,
    scope VARCHAR(64) NOT NULL,
    digest VARCHAR(64) NOT NULL,
    ref VARCHAR(128) NOT NULL,
    CONSTRAINT attachment_ref_pkey PRIMARY KEY (ref_id),
    CONSTRAINT attachment_ref_key UNIQUE (scope, digest, ref)
);

CREATE TABLE attachment_upload (
    upload_id VARCHAR(48) NOT NULL,
    scope VARCHAR(64) NOT NULL,
    digest VARCHAR(64) NOT NULL,
    byte_length bigint NOT NULL,
    owner_session VARCHAR(64) NOT NULL,
    CONSTRAINT attachment_upload_pkey PRIMARY KEY (upload_id)
);
