-- Switchboard schema, version 8 (PostgreSQL): REDSYN keys set on few messages leave the message table's
-- indexes for side tables (issue 20). H2 writes, at each commit, the page path of every index an
-- insert changed, null keys included; the event id (topic copies only) and the sender's session (only
-- when the sender names one) cost every send two such paths. Their side tables are written only by the
-- messages that have them: acks by event id and a session's page read them.
CREATE TABLE redsyn_message_event (
    eventid character varying(128) NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT redsyn_message_event_pkey PRIMARY KEY (eventid, seq)
);
INSERT INTO redsyn_message_event (eventid, seq) SELECT eventid, seq FROM redsyn_message WHERE eventid IS NOT NULL;
CREATE TABLE redsyn_message_from_session (
    sessionid bigint NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT redsyn_message_from_session_pkey PRIMARY KEY (sessionid, seq)
);
INSERT INTO redsyn_message_from_session (sessionid, seq) SELECT fromsessionid, seq FROM redsyn_message WHERE fromsessionid IS NOT NULL;
DROP INDEX redsyn_msg_event;
DROP INDEX redsyn_msg_fromsession;
