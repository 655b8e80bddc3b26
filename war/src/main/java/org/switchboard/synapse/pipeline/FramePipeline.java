package org.switchboard.synapse.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of named {@link PipelineStep}s run for every inbound frame until one stops it.
 * The order is the protocol's (which refusal a bad frame gets must never depend on timing), so it
 * is declared once, where the hub builds the pipeline, and can be read back with {@link #names()}.
 */
public final class FramePipeline {

    private final String[] names;
    private final PipelineStep[] steps;

    private FramePipeline(List<String> names, List<PipelineStep> steps) {
        this.names = names.toArray(String[]::new);
        this.steps = steps.toArray(PipelineStep[]::new);
    }

    /** Starts declaring a pipeline. */
    public static Builder builder() {
        return new Builder();
    }

    /** Runs the steps in order; true when every step passed the frame. */
    public boolean run(FrameInFlight frame) {
        for (PipelineStep step : steps) {
            if (!step.pass(frame)) {
                return false;
            }
        }
        return true;
    }

    /** The steps' names in order (documentation, tests). */
    public List<String> names() {
        return Collections.unmodifiableList(List.of(names));
    }

    /** Collects the steps in the order they are added. */
    public static final class Builder {

        private final List<String> names = new ArrayList<>();
        private final List<PipelineStep> steps = new ArrayList<>();

        /** Appends a step; {@code name} says what it checks (e.g. "per-host rate limit"). */
        public Builder then(String name, PipelineStep step) {
            if (names.contains(name)) {
                throw new IllegalArgumentException("step '" + name + "' declared twice");
            }
            names.add(name);
            steps.add(step);
            return this;
        }

        /** The pipeline as declared. */
        public FramePipeline build() {
            return new FramePipeline(names, steps);
        }
    }
}
