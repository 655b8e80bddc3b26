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

    // scoped attachments (synapse-advanced §3): refusals by stable error string
    public final java.util.concurrent.ConcurrentHashMap<String, LongAdder> attachmentErrors =
            new java.util.concurrent.ConcurrentHashMap<>();
    // identity binding (synapse-advanced §6.5)
    public final LongAdder identityPinMismatches = new LongAdder();
    public final LongAdder identityBindingFailures = new LongAdder();
    public final LongAdder identityPinsCreated = new LongAdder();
    // per-message authentication (synapse-advanced §6.3/§6.4): frames checked, by verification result
    public final java.util.concurrent.ConcurrentHashMap<String, LongAdder> messageAuthResults =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Counts one per-message verification with {@code result}. */
    public void messageAuthResult(String result) {
        messageAuthResults.computeIfAbsent(result, r -> new LongAdder()).increment();
    }
    // ACL (synapse-advanced §6.6): denials by permission ("unmapped": a mutating type without a mapping)
    public final java.util.concurrent.ConcurrentHashMap<String, LongAdder> aclDenials = new java.util.concurrent.ConcurrentHashMap<>();
    // governed operator verbs (synapse-advanced §7): outcomes by verb and result ("verb result" keys)
    public final java.util.concurrent.ConcurrentHashMap<String, LongAdder> governedVerbs = new java.util.concurrent.ConcurrentHashMap<>();

    /** Counts one outcome ({@code applied}, {@code refused}, {@code denied}, {@code recorded}, …) of a governed verb. */
    public void governedVerb(String verb, String result) {
        governedVerbs.computeIfAbsent(verb + " " + result, k -> new LongAdder()).increment();
    }
}
