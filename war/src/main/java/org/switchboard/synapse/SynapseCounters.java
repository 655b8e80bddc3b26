package org.switchboard.synapse;

import java.util.concurrent.atomic.LongAdder;

/** Process-lifetime counters behind {@code /metrics} (§17.2); they reset with the process. */
public final class SynapseCounters {
    public final LongAdder chatDirected = new LongAdder();
    public final LongAdder chatBroadcast = new LongAdder();
    public final LongAdder rateLimited = new LongAdder();
    public final LongAdder authFailures = new LongAdder();
    public final LongAdder ingressRefused = new LongAdder();
    public final LongAdder takeovers = new LongAdder();
    public final LongAdder takeoverQuarantines = new LongAdder();

    // ACL (synapse-advanced §6.6): denials by permission ("unmapped": a mutating type without a mapping)
    public final java.util.concurrent.ConcurrentHashMap<String, LongAdder> aclDenials = new java.util.concurrent.ConcurrentHashMap<>();
}
