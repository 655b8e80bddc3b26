package org.switchboard.synapse.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fixed vectors for the derived identities of synapse-advanced §2.2, §2.5 and §2.12. Each expected
 * value was computed by hand outside Java, with Python 3:
 * <pre>
 * cj = lambda v: json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=True)
 * h  = lambda s: hashlib.sha256(s.encode('ascii')).hexdigest()
 * </pre>
 * (CJ-ASCII of §1.3: sorted keys, no whitespace, {@code \\uXXXX} for non-ASCII, Python float repr).
 */
class DeliveryDigestsTest {

    private static final String INCARNATION = "5e0c6f0d2a9b4c7e8f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70";

    @Test
    void incarnationIsTheSha256OfTheTokensAsciiBytes() {
        // h('00' * 32) and h('0123456789abcdef' * 4)
        assertEquals("60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55",
                DeliveryDigests.incarnation("00".repeat(32)));
        assertEquals("a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e",
                DeliveryDigests.incarnation("0123456789abcdef".repeat(4)));
    }

    @Test
    void operationKeyHashesOriginSenderAndRequestIdAsAnArray() {
        // h(cj(["hub-a","ACME/planner","rq-7781"]))
        assertEquals("68640bde585ecd3e70a174dde7812552aab76fcffeb26aa0ed47d624387c567e",
                DeliveryDigests.operationKey("hub-a", "ACME/planner", "rq-7781"));
        // non-ASCII escaped, astral characters as a surrogate pair: ["hub-a","ACME/pl\u00e4nner","rq-\u2603-\ud83d\ude00"]
        assertEquals("c895c05ba2406aa42150bf7cf1b154d8ef02269259a94eca35f0bb79c600f289",
                DeliveryDigests.operationKey("hub-a", "ACME/pl\u00e4nner", "rq-\u2603-\uD83D\uDE00"));
    }

    @Test
    void requestDigestOfTheSection220ExampleRendersTheDeadlineAsAFloat() {
        // cj of the eleven fields, "deadline":1790000600.0
        DeliveryIntent intent = new DeliveryIntent("ACME/planner", "rq-7781", "ik-7781", "ACME/builder", INCARNATION,
                "steer", List.of("follow_up"), "T-42", "Rebase on main before continuing.", 1790000600.0);
        assertEquals("7ce54942ce5a861179624ff67f242bf947b9501c5373d07c0ad51628ba7a3108",
                DeliveryDigests.requestDigest(intent, "hub-a"));
    }

    @Test
    void anIntegralDeadlineStillRendersAsAFloat() {
        // same fields, "deadline":1790000601.0 (a double whose shortest decimal form has no fraction)
        DeliveryIntent intent = new DeliveryIntent("ACME/planner", "rq-7781", "ik-7781", "ACME/builder", INCARNATION,
                "steer", List.of("follow_up"), "T-42", "Rebase on main before continuing.", 1790000601.0);
        assertEquals("3ac81fa6bde8b9e879dfc203f6058447a86cd8abca498a00504cf17e7dcfde81",
                DeliveryDigests.requestDigest(intent, "hub-a"));
    }

    @Test
    void requestDigestEscapesBodyAndKeepsAnEmptyFallbackArray() {
        // body "Z\u00fcrich \"quoted\"\n", deadline 1790000600.25, allowed_fallbacks []
        DeliveryIntent intent = new DeliveryIntent("ACME/planner", "rq-7781", "ik-7781", "ACME/builder", INCARNATION,
                "steer", List.of(), "T-42", "Z\u00fcrich \"quoted\"\n", 1790000600.25);
        assertEquals("74955e060e2d949c8658c60290a7d2fb86b948f2bcfd1b69238bf7a70817c3d1",
                DeliveryDigests.requestDigest(intent, "hub-a"));
    }

    @Test
    void mutationDigestHashesKeyMutationStageAndEvidence() {
        JsonObject evidence = Json.createObjectBuilder().add("outcome_code", "ok").add("executor_ref", "turn-0193")
                .add("task_id", "T-42").add("request_id", "rq-7781").build();
        assertEquals("fcc8fb13d9e161cf19296471fea31b665a9483a1120f131c4a3901daf9f13f7f",
                DeliveryDigests.mutationDigest("b".repeat(64), "out-1", "completed", evidence));
        // a cancel request: stage token "cancel_requested", empty evidence
        assertEquals("e5ed4727e42d6819954687bc421c489d9e670d3c9f005a1f8b914af333195514",
                DeliveryDigests.mutationDigest("b".repeat(64), "c-1", "cancel_requested", Json.createObjectBuilder().build()));
    }
}
