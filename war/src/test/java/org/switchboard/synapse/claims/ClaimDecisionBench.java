package org.switchboard.synapse.claims;

import jakarta.json.JsonObject;
import org.switchboard.synapse.idempotency.MutationCommit;

/**
 * Micro benchmark (not a test): cost of one claim decision against 100 live claims held by other
 * owners, for a grant (followed by its release, to keep 100 live) and for a scope-conflict denial
 * (which also builds the hashed denial evidence). Prints wall time and this thread's CPU time per
 * decision: on a shared machine the CPU figure is the one that does not include waiting for a core.
 * Run:
 * {@code java -cp war/target/test-classes:war/target/classes:<parsson+jakarta.json jars> org.switchboard.synapse.claims.ClaimDecisionBench}
 */
public final class ClaimDecisionBench {

    private ClaimDecisionBench() {
    }

    /** Runs warm-up then timed rounds and prints ns per decision. */
    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        ClaimBook book = new ClaimBook();
        double now = 1_767_226_400.0;
        for (int i = 0; i < 100; i++) {
            JsonObject f = Frames.json("{'task_id':'held-" + i + "','paths':['modules/m" + i + "/src','modules/m" + i
                    + "/test/Data.java']}");
            book.claim(ClaimRequest.from(f), "owner-" + i, "p-" + i, now, MutationCommit.NONE);
        }
        ClaimRequest free = ClaimRequest.from(Frames.json("{'task_id':'fresh','paths':['modules/m500/src','docs/readme.md']}"));
        ClaimRequest clash = ClaimRequest.from(Frames.json("{'task_id':'clash','paths':['docs','modules/m42/src/Main.java']}"));
        ReleaseRequest release = ReleaseRequest.from(Frames.json("{'task_id':'fresh'}"), "newcomer");
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int round = 0; round < rounds; round++) {
            long grantNs = 0;
            long denyNs = 0;
            long cpuStart = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < iterations; i++) {
                long t0 = System.nanoTime();
                ClaimDecision g = book.claim(free, "newcomer", "p-new", now, MutationCommit.NONE);
                long t1 = System.nanoTime();
                ClaimDecision d = book.claim(clash, "intruder", "p-x", now, MutationCommit.NONE);
                long t2 = System.nanoTime();
                if (!g.granted() || d.granted()) {
                    throw new IllegalStateException("unexpected decision");
                }
                book.release(release, "newcomer", now, MutationCommit.NONE);
                grantNs += t1 - t0;
                denyNs += t2 - t1;
            }
            double cpuPerPair = (cpu.getCurrentThreadCpuTime() - cpuStart) / 1000.0 / iterations;
            System.out.printf("round %d: live=%d grant %.2f us/op, scope-conflict denial %.2f us/op (wall);"
                            + " thread CPU %.2f us per grant+denial+release%n", round, book.liveClaims(now).size(),
                    grantNs / 1000.0 / iterations, denyNs / 1000.0 / iterations, cpuPerPair);
        }
    }
}
