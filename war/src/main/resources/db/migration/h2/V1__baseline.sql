-- Switchboard schema, version 1 (H2): the tables, sequences, keys and indexes of the JPA entities
-- as of the first versioned release (the schema EclipseLink generated until then; see schema.md).
-- Never edit a script that has shipped: add V<n+1>__<what>.sql beside it, for H2 and PostgreSQL alike.

-- Id sequences of the REDSYN entities: INCREMENT BY is the entity's allocationSize, and START WITH
-- equals it because EclipseLink hands out the block that ends at the value it reads.
CREATE SEQUENCE redsyn_agent_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_exposure_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_invite_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_link_change_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_link_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_member_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_message_seq START WITH 500 INCREMENT BY 500;
CREATE SEQUENCE redsyn_node_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_org_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_person_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_session_seq START WITH 200 INCREMENT BY 200;
CREATE SEQUENCE redsyn_subscription_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_team_member_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_team_seq START WITH 20 INCREMENT BY 20;
CREATE SEQUENCE redsyn_topic_seq START WITH 20 INCREMENT BY 20;

CREATE TABLE journal_event (
    seq bigint NOT NULL,
    appended_at double precision NOT NULL,
    kind VARCHAR(64) NOT NULL,
    payload VARCHAR(4194304) NOT NULL,
    CONSTRAINT journal_event_pkey PRIMARY KEY (seq)
);

CREATE TABLE journal_outbox (
    notification_id VARCHAR(200) NOT NULL,
    attempts integer NOT NULL,
    created_order bigint NOT NULL,
    delivered_at double precision,
    frame_json VARCHAR(4194304) NOT NULL,
    message_seq bigint NOT NULL,
    phase VARCHAR(64) NOT NULL,
    sender VARCHAR(512) NOT NULL,
    CONSTRAINT journal_outbox_pkey PRIMARY KEY (notification_id),
    CONSTRAINT journal_outbox_created_order_key UNIQUE (created_order)
);
CREATE INDEX journal_outbox_sender ON journal_outbox (sender, delivered_at);

CREATE TABLE journal_quarantine (
    seq bigint NOT NULL,
    quarantined_at double precision NOT NULL,
    reason VARCHAR(1024) NOT NULL,
    CONSTRAINT journal_quarantine_pkey PRIMARY KEY (seq)
);

CREATE TABLE journal_setting (
    setting_name VARCHAR(64) NOT NULL,
    setting_value VARCHAR(1024) NOT NULL,
    CONSTRAINT journal_setting_pkey PRIMARY KEY (setting_name)
);

CREATE TABLE redsyn_agent (
    id bigint NOT NULL,
    adapter VARCHAR(200),
    address VARCHAR(300) NOT NULL,
    allowlist VARCHAR(2000),
    createdat bigint,
    description VARCHAR(2000),
    encryptedonly boolean,
    lastnode VARCHAR(64),
    lastseen bigint,
    listening boolean,
    org VARCHAR(64) NOT NULL,
    ownerpersonid bigint,
    signedonly boolean,
    team VARCHAR(64) NOT NULL,
    trust VARCHAR(10),
    userhandle VARCHAR(64) NOT NULL,
    CONSTRAINT redsyn_agent_pkey PRIMARY KEY (id),
    CONSTRAINT redsyn_agent_address_key UNIQUE (address)
);
CREATE INDEX redsyn_agent_org ON redsyn_agent (org);

CREATE TABLE redsyn_file (
    messageid VARCHAR(128) NOT NULL,
    bytes bigint,
    org VARCHAR(64),
    zip BINARY VARYING NOT NULL,
    CONSTRAINT redsyn_file_pkey PRIMARY KEY (messageid)
);

CREATE TABLE redsyn_invite (
    id bigint NOT NULL,
    accepted boolean,
    createdat bigint,
    email VARCHAR(254) NOT NULL,
    orgid bigint,
    team VARCHAR(64) NOT NULL,
    CONSTRAINT redsyn_invite_pkey PRIMARY KEY (id)
);

CREATE TABLE redsyn_link (
    id bigint NOT NULL,
    changedat bigint,
    ipsa VARCHAR(2000),
    ipsb VARCHAR(2000),
    orga VARCHAR(64) NOT NULL,
    orgb VARCHAR(64) NOT NULL,
    proposedby VARCHAR(64) NOT NULL,
    signedonlya boolean,
    signedonlyb boolean,
    state VARCHAR(10) NOT NULL,
    CONSTRAINT redsyn_link_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_link_0 UNIQUE (orga, orgb)
);

CREATE TABLE redsyn_link_change (
    id bigint NOT NULL,
    action VARCHAR(20) NOT NULL,
    changedat bigint,
    detail VARCHAR(2000),
    linkid bigint NOT NULL,
    org VARCHAR(64) NOT NULL,
    who VARCHAR(64) NOT NULL,
    CONSTRAINT redsyn_link_change_pkey PRIMARY KEY (id)
);

CREATE TABLE redsyn_link_exposure (
    id bigint NOT NULL,
    kind VARCHAR(8) NOT NULL,
    linkid bigint NOT NULL,
    org VARCHAR(64) NOT NULL,
    pattern VARCHAR(200) NOT NULL,
    CONSTRAINT redsyn_link_exposure_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_link_exposure_0 UNIQUE (linkid, org, kind, pattern)
);

CREATE TABLE redsyn_member (
    id bigint NOT NULL,
    admin boolean,
    handle VARCHAR(64) NOT NULL,
    orgid bigint NOT NULL,
    personid bigint NOT NULL,
    CONSTRAINT redsyn_member_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_member_0 UNIQUE (orgid, personid),
    CONSTRAINT unq_redsyn_member_1 UNIQUE (orgid, handle)
);

CREATE TABLE redsyn_message (
    seq bigint NOT NULL,
    attempts integer,
    bodyjson CHARACTER VARYING NOT NULL,
    createdat bigint,
    doneat bigint,
    encrypted boolean,
    errorflag boolean,
    eventid VARCHAR(128),
    expiresat bigint,
    filesbytes bigint,
    filessha256 VARCHAR(64),
    fromaddress VARCHAR(320) NOT NULL,
    fromagentid bigint,
    fromorg VARCHAR(64),
    frompersonid bigint,
    fromsessionid bigint,
    kind VARCHAR(10) NOT NULL,
    leaseuntil bigint,
    messageid VARCHAR(128) NOT NULL,
    notice boolean,
    orderkey VARCHAR(140),
    refsjson CHARACTER VARYING,
    replied boolean,
    replyto VARCHAR(128),
    sigjson CHARACTER VARYING,
    signedflag boolean,
    state integer,
    takenby VARCHAR(64),
    thread VARCHAR(128) NOT NULL,
    toaddress VARCHAR(320) NOT NULL,
    toagentid bigint,
    toorg VARCHAR(64),
    topersonid bigint,
    tosessionid bigint,
    topic VARCHAR(200),
    ts bigint,
    ttl bigint,
    CONSTRAINT redsyn_message_pkey PRIMARY KEY (seq),
    CONSTRAINT redsyn_message_messageid_key UNIQUE (messageid)
);
CREATE INDEX redsyn_msg_event ON redsyn_message (eventid);
CREATE INDEX redsyn_msg_fromorg ON redsyn_message (fromorg, createdat);
CREATE INDEX redsyn_msg_fromsession ON redsyn_message (fromsessionid);
CREATE INDEX redsyn_msg_inbox ON redsyn_message (toagentid, state, seq);
CREATE INDEX redsyn_msg_lease ON redsyn_message (state, leaseuntil);
CREATE INDEX redsyn_msg_thread ON redsyn_message (thread, seq);
CREATE INDEX redsyn_msg_tosession ON redsyn_message (tosessionid);
CREATE INDEX redsyn_msg_ttl ON redsyn_message (state, expiresat);

CREATE TABLE redsyn_node (
    id bigint NOT NULL,
    createdat bigint,
    enckey VARCHAR(128),
    encsig VARCHAR(128),
    keychangedat bigint,
    keyfingerprint VARCHAR(64),
    name VARCHAR(64) NOT NULL,
    personid bigint NOT NULL,
    signingkey VARCHAR(128),
    tokenhash VARCHAR(64) NOT NULL,
    CONSTRAINT redsyn_node_pkey PRIMARY KEY (id),
    CONSTRAINT redsyn_node_tokenhash_key UNIQUE (tokenhash),
    CONSTRAINT unq_redsyn_node_0 UNIQUE (personid, name)
);

CREATE TABLE redsyn_org (
    id bigint NOT NULL,
    createdat bigint,
    creatorpersonid bigint,
    handle VARCHAR(64) NOT NULL,
    pinnedversion VARCHAR(10) NOT NULL,
    CONSTRAINT redsyn_org_pkey PRIMARY KEY (id),
    CONSTRAINT redsyn_org_handle_key UNIQUE (handle)
);

CREATE TABLE redsyn_person (
    id bigint NOT NULL,
    createdat bigint,
    email VARCHAR(254) NOT NULL,
    plan VARCHAR(40) NOT NULL,
    CONSTRAINT redsyn_person_pkey PRIMARY KEY (id),
    CONSTRAINT redsyn_person_email_key UNIQUE (email)
);

CREATE TABLE redsyn_sealed_for (
    messageseq bigint NOT NULL,
    agentid bigint,
    node VARCHAR(64) NOT NULL,
    CONSTRAINT redsyn_sealed_for_pkey PRIMARY KEY (messageseq)
);
CREATE INDEX redsyn_sealed_agent ON redsyn_sealed_for (agentid, messageseq);

CREATE TABLE redsyn_session (
    id bigint NOT NULL,
    agentid bigint,
    closed boolean,
    createdat bigint,
    thread VARCHAR(128) NOT NULL,
    title VARCHAR(500),
    CONSTRAINT redsyn_session_pkey PRIMARY KEY (id)
);
CREATE INDEX redsyn_session_agent ON redsyn_session (agentid, id);

CREATE TABLE redsyn_subscription (
    id bigint NOT NULL,
    agentaddress VARCHAR(320) NOT NULL,
    agentid bigint NOT NULL,
    agentorg VARCHAR(64) NOT NULL,
    createdat bigint,
    ownerpersonid bigint,
    sessionid bigint,
    topicid bigint NOT NULL,
    CONSTRAINT redsyn_subscription_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_subscription_0 UNIQUE (topicid, agentid)
);

CREATE TABLE redsyn_team (
    id bigint NOT NULL,
    handle VARCHAR(64) NOT NULL,
    orgid bigint NOT NULL,
    CONSTRAINT redsyn_team_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_team_0 UNIQUE (orgid, handle)
);

CREATE TABLE redsyn_team_member (
    id bigint NOT NULL,
    personid bigint NOT NULL,
    teamid bigint NOT NULL,
    CONSTRAINT redsyn_team_member_pkey PRIMARY KEY (id),
    CONSTRAINT unq_redsyn_team_member_0 UNIQUE (teamid, personid)
);

CREATE TABLE redsyn_thread_session (
    agentthread VARCHAR(160) NOT NULL,
    sessionid bigint,
    CONSTRAINT redsyn_thread_session_pkey PRIMARY KEY (agentthread)
);

CREATE TABLE redsyn_topic (
    id bigint NOT NULL,
    createdat bigint,
    org VARCHAR(64) NOT NULL,
    path VARCHAR(200) NOT NULL,
    CONSTRAINT redsyn_topic_pkey PRIMARY KEY (id),
    CONSTRAINT redsyn_topic_path_key UNIQUE (path)
);

CREATE TABLE redsyn_topic_event (
    eventid VARCHAR(128) NOT NULL,
    copies integer,
    frompersonid bigint,
    publishedat bigint,
    signedflag boolean,
    thread VARCHAR(128) NOT NULL,
    topic VARCHAR(200) NOT NULL,
    CONSTRAINT redsyn_topic_event_pkey PRIMARY KEY (eventid)
);

CREATE TABLE redsyn_webhook (
    agentid bigint NOT NULL,
    createdat bigint,
    org VARCHAR(64) NOT NULL,
    secret VARCHAR(100) NOT NULL,
    url VARCHAR(2000) NOT NULL,
    CONSTRAINT redsyn_webhook_pkey PRIMARY KEY (agentid)
);
CREATE INDEX redsyn_webhook_org ON redsyn_webhook (org);

CREATE TABLE redsyn_webhook_delivery (
    messageseq bigint NOT NULL,
    agentid bigint,
    attemptsfailed integer,
    claimeduntil bigint,
    dueat bigint,
    messageid VARCHAR(128) NOT NULL,
    CONSTRAINT redsyn_webhook_delivery_pkey PRIMARY KEY (messageseq)
);
CREATE INDEX redsyn_whd_due ON redsyn_webhook_delivery (dueat);
