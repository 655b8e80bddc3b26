package org.switchboard.itests.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.switchboard.synapse.acl.Access;
import org.switchboard.synapse.acl.AccessMap;
import org.switchboard.synapse.acl.AclPolicy;

/**
 * Micro benchmark of the ACL gate's work per frame (synapse-advanced §6.6), outside the server: map a
 * frame to its accesses and decide each against a 1,000-rule policy (mixed permissions, literal and
 * wildcard patterns, namespaces). Issue 17's target is ≤ 20 µs per frame. Not part of the default
 * run (the name does not end in IT); see src/site/markdown/benchmarks.md. Properties:
 * {@code bench.rules} (1000), {@code bench.frames} (2000000), {@code bench.warmup} (500000).
 */
class AclEvaluationBench {

    private static final JsonProvider JSON = JsonProvider.provider();

    @Test
    void evaluationAgainstALargePolicy() {
        int ruleCount = Integer.getInteger("bench.rules", 1000);
        int frames = Integer.getInteger("bench.frames", 2_000_000);
        int warmup = Integer.getInteger("bench.warmup", 500_000);
        Random random = new Random(17);
        String[] permissions = {"message", "claim", "release", "board", "recall"};
        String[] kinds = {"agent", "claim", "claim", "board", "history"};
        JsonArrayBuilder rules = JSON.createArrayBuilder();
        for (int i = 0; i < ruleCount; i++) {
            int p = random.nextInt(permissions.length);
            String pattern = switch (random.nextInt(4)) {
                case 0 -> "P" + random.nextInt(100) + "/agent" + random.nextInt(50);
                case 1 -> "P" + random.nextInt(100) + "/*";
                case 2 -> "T-" + random.nextInt(1000) + "-[0-9]*";
                default -> "P" + random.nextInt(100) + "/agent?" + random.nextInt(10);
            };
            rules.add(JSON.createObjectBuilder().add("permission", permissions[p]).add("target_kind", kinds[p])
                    .add("target_pattern", pattern).add("namespace", random.nextBoolean() ? "" : "P" + random.nextInt(100)));
        }
        AclPolicy policy = AclPolicy.parse(JSON.createObjectBuilder().add("rules", rules).build());
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            String sender = "P" + random.nextInt(120) + "/agent" + random.nextInt(60);
            switch (i % 4) {
                case 0 -> sample.add(new Object[] {"chat", JSON.createObjectBuilder().build(), sender,
                        "P" + random.nextInt(120) + "/agent" + random.nextInt(60)});
                case 1 -> sample.add(new Object[] {"claim", JSON.createObjectBuilder().add("task_id", "T-" + random.nextInt(1200) + "-7")
                        .add("paths", JSON.createArrayBuilder().add("src/a").add("docs")).build(), sender, "System"});
                case 2 -> sample.add(new Object[] {"release", JSON.createObjectBuilder().add("task_id", "T-" + random.nextInt(1200) + "-1")
                        .build(), sender, "System"});
                default -> sample.add(new Object[] {"history_request", JSON.createObjectBuilder().build(), sender, "System"});
            }
        }
        long allowed = run(policy, sample, warmup);
        long started = System.nanoTime();
        allowed += run(policy, sample, frames);
        double nanosPerFrame = (System.nanoTime() - started) / (double) frames;
        System.out.printf("ACL evaluation: %d rules, %d frames, %.2f µs per frame (%d allowed accesses)%n",
                ruleCount, frames, nanosPerFrame / 1000.0, allowed);
        assertTrue(allowed > 0, "the policy allowed nothing: the sample does not exercise the allow path");
    }

    private static long run(AclPolicy policy, List<Object[]> sample, int frames) {
        long allowed = 0;
        for (int i = 0; i < frames; i++) {
            Object[] f = sample.get(i & 1023);
            List<Access> accesses = AccessMap.required((String) f[0], (JsonObject) f[1], (String) f[2], (String) f[3]);
            for (Access access : accesses) {
                if (policy.decide((String) f[2], access).allowed()) {
                    allowed++;
                }
            }
        }
        return allowed;
    }
}
