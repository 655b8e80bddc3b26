-- Switchboard schema, version 7 (H2): REDSYN delivery-state indexes that a state change touches
-- less (issue 20). H2 writes, at each commit, the page path of every index an update changed; the
-- three indexes led by STATE changed on every lease and every ack. Now the inbox index holds WAITING
-- (1 while queued or taken: a lease leaves it alone), and one DEADLINE index (the TTL while queued, the
-- lease's end while taken, null once final) serves both sweeps in place of LEASE and TTL.
ALTER TABLE redsyn_message ADD COLUMN waiting integer DEFAULT 0 NOT NULL;
ALTER TABLE redsyn_message ADD COLUMN deadline bigint;
UPDATE redsyn_message SET waiting = 1, deadline = CASE WHEN state = 0 THEN expiresat ELSE leaseuntil END WHERE state IN (0, 1);
DROP INDEX redsyn_msg_inbox;
DROP INDEX redsyn_msg_lease;
DROP INDEX redsyn_msg_ttl;
CREATE INDEX redsyn_msg_waiting ON redsyn_message (toagentid, waiting, seq);
CREATE INDEX redsyn_msg_deadline ON redsyn_message (deadline);
