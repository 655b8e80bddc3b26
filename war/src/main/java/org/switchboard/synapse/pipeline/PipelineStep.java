package org.switchboard.synapse.pipeline;

/**
 * One gate of the inbound frame pipeline (synapse-advanced §1.4). A step either lets the frame on
 * or answers it itself (a refusal frame, a close) and stops it there.
 */
@FunctionalInterface
public interface PipelineStep {

    /** True to pass the frame to the next step; false when this step has dealt with it. */
    boolean pass(FrameInFlight frame);
}
