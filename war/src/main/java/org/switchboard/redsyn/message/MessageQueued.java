package org.switchboard.redsyn.message;

/** CDI event: a message for this agent became takeable (fired in the transaction, observed after commit). */
public record MessageQueued(long agentId) {
}
