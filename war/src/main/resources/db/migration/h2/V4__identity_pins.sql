-- Switchboard schema, version 4 (H2): TOFU identity pins of SYNAPSE registration (synapse-advanced §6.5).
-- One row per pinned name; pins change only through the governed identity_pin_reclaim verb (§7.1).
CREATE TABLE identity_pin (
    pin_name VARCHAR(512) NOT NULL,
    key_id VARCHAR(256) NOT NULL,
    public_key VARCHAR(64) NOT NULL,
    pinned_at double precision NOT NULL,
    CONSTRAINT identity_pin_pkey PRIMARY KEY (pin_name)
);
