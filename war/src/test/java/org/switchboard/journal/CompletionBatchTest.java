package org.switchboard.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompletionBatchTest {

    @Test
    void outsideABatchNothingIsDeferred() {
        List<String> ran = new ArrayList<>();
        assertFalse(CompletionBatch.defer("a", () -> ran.add("a")));
        assertEquals(List.of(), ran, "the caller runs it itself");
    }

    @Test
    void deferredActionsRunOncePerKeyAfterTheCompletionsInFirstDeferredOrder() {
        List<String> ran = new ArrayList<>();
        CompletionBatch.run(() -> {
            assertTrue(CompletionBatch.defer("socket-b", () -> ran.add("flush b")));
            assertTrue(CompletionBatch.defer("socket-a", () -> ran.add("flush a")));
            assertTrue(CompletionBatch.defer("socket-b", () -> ran.add("flush b again")));
            ran.add("completions done");
        });
        assertEquals(List.of("completions done", "flush b", "flush a"), ran);
    }

    @Test
    void whatADeferredActionStartsRunsAtOnceAndAFailingActionDoesNotStopTheOthers() {
        List<String> ran = new ArrayList<>();
        CompletionBatch.run(() -> {
            CompletionBatch.defer("x", () -> {
                assertFalse(CompletionBatch.defer("y", () -> ran.add("never deferred")), "the batch is over");
                ran.add("x");
            });
            CompletionBatch.defer("boom", () -> {
                throw new IllegalStateException("socket gone");
            });
            CompletionBatch.defer("z", () -> ran.add("z"));
        });
        assertEquals(List.of("x", "z"), ran);
        assertFalse(CompletionBatch.defer("after", () -> { }), "no batch left open on the thread");
    }

    @Test
    void aNestedRunJoinsTheOuterBatch() {
        List<String> ran = new ArrayList<>();
        CompletionBatch.run(() -> {
            CompletionBatch.run(() -> CompletionBatch.defer("k", () -> ran.add("k")));
            ran.add("outer done");
        });
        assertEquals(List.of("outer done", "k"), ran);
    }
}
