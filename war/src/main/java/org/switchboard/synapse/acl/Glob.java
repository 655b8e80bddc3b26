package org.switchboard.synapse.acl;

import java.util.ArrayList;
import java.util.List;

/**
 * A case-sensitive glob compiled once: {@code *} (any run, including empty), {@code ?} (one
 * character), {@code [...]} (one character of a set, with {@code a-z} ranges and {@code [!...]}
 * negation). A {@code [} without its closing {@code ]} is a literal. Characters are Unicode code points.
 */
public final class Glob {

    private static final int LITERAL = 0;
    private static final int ANY_ONE = 1;
    private static final int ANY_RUN = 2;
    private static final int SET = 3;

    private final String pattern;
    private final int[] kinds;
    private final int[] literals;
    private final int[][] ranges;
    private final boolean[] negated;
    private final boolean literalOnly;
    /** The pattern's literal start: a value without it is rejected before any matching. */
    private final String prefix;

    private Glob(String pattern, List<int[]> tokens, List<int[]> sets, List<Boolean> negations) {
        this.pattern = pattern;
        int n = tokens.size();
        this.kinds = new int[n];
        this.literals = new int[n];
        this.ranges = new int[n][];
        this.negated = new boolean[n];
        boolean onlyLiterals = true;
        for (int i = 0; i < n; i++) {
            kinds[i] = tokens.get(i)[0];
            literals[i] = tokens.get(i)[1];
            ranges[i] = sets.get(i);
            negated[i] = negations.get(i);
            onlyLiterals &= kinds[i] == LITERAL;
        }
        this.literalOnly = onlyLiterals;
        StringBuilder start = new StringBuilder();
        for (int i = 0; i < n && kinds[i] == LITERAL; i++) {
            start.appendCodePoint(literals[i]);
        }
        this.prefix = start.toString();
    }

    /** Compiles {@code pattern}. */
    public static Glob compile(String pattern) {
        List<int[]> tokens = new ArrayList<>();
        List<int[]> sets = new ArrayList<>();
        List<Boolean> negations = new ArrayList<>();
        int[] cps = pattern.codePoints().toArray();
        int i = 0;
        while (i < cps.length) {
            int c = cps[i];
            if (c == '*') {
                // a run of stars matches as one
                if (tokens.isEmpty() || tokens.get(tokens.size() - 1)[0] != ANY_RUN) {
                    add(tokens, sets, negations, ANY_RUN, 0, null, false);
                }
                i++;
            } else if (c == '?') {
                add(tokens, sets, negations, ANY_ONE, 0, null, false);
                i++;
            } else if (c == '[') {
                int end = closing(cps, i);
                if (end < 0) {
                    add(tokens, sets, negations, LITERAL, c, null, false);
                    i++;
                    continue;
                }
                int start = i + 1;
                boolean neg = cps[start] == '!';
                if (neg) {
                    start++;
                }
                List<Integer> bounds = new ArrayList<>();
                for (int j = start; j < end; j++) {
                    if (j + 2 < end && cps[j + 1] == '-') {
                        bounds.add(cps[j]);
                        bounds.add(cps[j + 2]);
                        j += 2;
                    } else {
                        bounds.add(cps[j]);
                        bounds.add(cps[j]);
                    }
                }
                add(tokens, sets, negations, SET, 0, bounds.stream().mapToInt(Integer::intValue).toArray(), neg);
                i = end + 1;
            } else {
                add(tokens, sets, negations, LITERAL, c, null, false);
                i++;
            }
        }
        return new Glob(pattern, tokens, sets, negations);
    }

    /** Index of the {@code ]} closing the set opened at {@code open}, or -1; a {@code ]} first in the set is a member. */
    private static int closing(int[] cps, int open) {
        int j = open + 1;
        if (j < cps.length && cps[j] == '!') {
            j++;
        }
        if (j < cps.length && cps[j] == ']') {
            j++;
        }
        for (; j < cps.length; j++) {
            if (cps[j] == ']') {
                return j;
            }
        }
        return -1;
    }

    private static void add(List<int[]> tokens, List<int[]> sets, List<Boolean> negations, int kind, int literal,
                            int[] set, boolean neg) {
        tokens.add(new int[] {kind, literal});
        sets.add(set);
        negations.add(neg);
    }

    /** The pattern as written. */
    public String pattern() {
        return pattern;
    }

    /** True when the whole of {@code value} matches. */
    public boolean matches(String value) {
        if (literalOnly) {
            return pattern.equals(value);
        }
        return value.startsWith(prefix) && matchesCodePoints(value.codePoints().toArray());
    }

    /**
     * As {@link #matches(String)} for a value already split into code points ({@code value} is the
     * same text as a String), so one value tried against many patterns is split once.
     */
    public boolean matches(String value, int[] codePoints) {
        if (literalOnly) {
            return pattern.equals(value);
        }
        return value.startsWith(prefix) && matchesCodePoints(codePoints);
    }

    private boolean matchesCodePoints(int[] text) {
        int p = 0;
        int t = 0;
        int starP = -1;
        int starT = -1;
        // iterative matching with one backtrack point per star: linear in practice, never exponential
        while (t < text.length) {
            if (p < kinds.length && kinds[p] != ANY_RUN && one(p, text[t])) {
                p++;
                t++;
            } else if (p < kinds.length && kinds[p] == ANY_RUN) {
                starP = p++;
                starT = t;
            } else if (starP >= 0) {
                p = starP + 1;
                t = ++starT;
            } else {
                return false;
            }
        }
        while (p < kinds.length && kinds[p] == ANY_RUN) {
            p++;
        }
        return p == kinds.length;
    }

    private boolean one(int token, int c) {
        switch (kinds[token]) {
            case LITERAL:
                return literals[token] == c;
            case ANY_ONE:
                return true;
            default:
                int[] bounds = ranges[token];
                boolean in = false;
                for (int i = 0; i < bounds.length && !in; i += 2) {
                    in = c >= bounds[i] && c <= bounds[i + 1];
                }
                return in != negated[token];
        }
    }

    @Override
    public String toString() {
        return pattern;
    }
}
