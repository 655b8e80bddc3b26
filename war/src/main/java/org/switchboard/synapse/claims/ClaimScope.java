package org.switchboard.synapse.claims;

import java.util.List;

/**
 * What a claim covers: a worktree label, normalised display paths and an optional
 * {@link PathIdentity}; {@link #conflictsWith} is the single definition of a scope conflict
 * (synapse-core §9.4/§9.5, synapse-advanced §8.2) that the index only accelerates.
 *
 * @param worktree     worktree label, {@code ""} = default tree
 * @param paths        normalised paths; {@code []} or {@code [""]} = whole worktree
 * @param pathIdentity validated identity, or null
 */
public record ClaimScope(String worktree, List<String> paths, PathIdentity pathIdentity) {

    /** Copies the path list. */
    public ClaimScope {
        paths = List.copyOf(paths);
    }

    /** Whether this scope covers its whole worktree. */
    public boolean wholeTree() {
        return ScopePaths.isWholeTree(paths);
    }

    /**
     * Whether two scopes (of claims by different owners on different tasks) conflict: their
     * worktrees are comparable (same label, or identities naming the same filesystem worktree)
     * and either covers the whole tree or two paths overlap under the stricter of the two case
     * policies; or, on the same filesystem worktree, two rows name the same object with
     * non-sibling object scopes.
     */
    public boolean conflictsWith(ClaimScope other) {
        boolean sameFilesystem = pathIdentity != null && pathIdentity.sameFilesystemAs(other.pathIdentity);
        if (!worktree.equals(other.worktree) && !sameFilesystem) {
            return false;
        }
        if (wholeTree() || other.wholeTree()) {
            return true;
        }
        if (pathsOverlap(other)) {
            return true;
        }
        return sameFilesystem && objectsOverlap(other);
    }

    private boolean pathsOverlap(ClaimScope other) {
        boolean anyIdentity = pathIdentity != null || other.pathIdentity != null;
        // Object identity may only add conflicts: a case-insensitive declaration on either side folds both.
        boolean fold = (pathIdentity != null && !pathIdentity.caseSensitive())
                || (other.pathIdentity != null && !other.pathIdentity.caseSensitive());
        for (String a : paths) {
            String ca = anyIdentity ? PathIdentity.comparable(a, !fold) : a;
            for (String b : other.paths) {
                String cb = anyIdentity ? PathIdentity.comparable(b, !fold) : b;
                if (ScopePaths.overlaps(ca, cb)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean objectsOverlap(ClaimScope other) {
        for (PathIdentity.Row a : pathIdentity.rows()) {
            if (a.objectId().isEmpty()) {
                continue;
            }
            for (PathIdentity.Row b : other.pathIdentity.rows()) {
                if (a.objectId().equals(b.objectId()) && PathIdentity.scopesConflict(a.objectScope(), b.objectScope())) {
                    return true;
                }
            }
        }
        return false;
    }
}
