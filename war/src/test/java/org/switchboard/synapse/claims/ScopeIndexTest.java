package org.switchboard.synapse.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The index must never hide a conflict that the plain pairwise rule finds. */
class ScopeIndexTest {

    private static final String[] SEGMENTS = {"src", "Src", "lib", "a.py", "b.py", "docs", "x", "srcx"};
    private static final String[] WORKTREES = {"", "", "wt2"};

    @Test
    void indexCandidatesAreASupersetOfPairwiseConflicts() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            ScopeIndex index = new ScopeIndex();
            Map<String, ClaimScope> scopes = new HashMap<>();
            for (int i = 0; i < 30; i++) {
                ClaimScope s = randomScope(random);
                scopes.put("t" + i, s);
                index.add("t" + i, s);
            }
            // remove a few to exercise pruning
            for (int i = 0; i < 5; i++) {
                String id = "t" + random.nextInt(30);
                ClaimScope s = scopes.remove(id);
                if (s != null) {
                    index.remove(id, s);
                }
            }
            for (int q = 0; q < 20; q++) {
                ClaimScope probe = randomScope(random);
                Set<String> candidates = index.candidates(probe);
                List<String> missed = new ArrayList<>();
                for (Map.Entry<String, ClaimScope> e : scopes.entrySet()) {
                    if (probe.conflictsWith(e.getValue()) && !candidates.contains(e.getKey())) {
                        missed.add(e.getKey() + "=" + e.getValue() + " vs " + probe);
                    }
                }
                assertEquals(List.of(), missed);
                assertTrue(candidates.stream().allMatch(scopes::containsKey), "no removed claim is returned");
            }
        }
    }

    private static ClaimScope randomScope(Random r) {
        String worktree = WORKTREES[r.nextInt(WORKTREES.length)];
        int n = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(3);
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int depth = 1 + r.nextInt(3);
            StringBuilder p = new StringBuilder();
            for (int d = 0; d < depth; d++) {
                if (d > 0) {
                    p.append('/');
                }
                p.append(SEGMENTS[r.nextInt(SEGMENTS.length)]);
            }
            paths.add(p.toString());
        }
        return new ClaimScope(worktree, ScopePaths.normalise(paths, 512), null);
    }
}
