package org.switchboard.synapse.claims;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Finds the claims that might conflict with a scope without scanning every claim: per worktree
 * label a trie of case-folded path segments, plus the label's whole-tree claims, plus groups of
 * claims whose path identities name the same filesystem worktree. Returns a superset of the real
 * conflicts; {@link ClaimScope#conflictsWith} decides. Not thread-safe: {@link ClaimBook} guards it.
 */
final class ScopeIndex {

    private static final class Node {
        final Map<String, Node> children = new HashMap<>(4);
        final Set<String> ending = new HashSet<>(2);

        boolean empty() {
            return children.isEmpty() && ending.isEmpty();
        }
    }

    private static final class Label {
        final Node root = new Node();
        final Set<String> wholeTree = new HashSet<>();
        final Set<String> all = new HashSet<>();
    }

    private final Map<String, Label> labels = new HashMap<>();
    private final Map<String, Set<String>> filesystemGroups = new HashMap<>();

    void add(String taskId, ClaimScope scope) {
        Label label = labels.computeIfAbsent(scope.worktree(), k -> new Label());
        label.all.add(taskId);
        if (scope.wholeTree()) {
            label.wholeTree.add(taskId);
        } else {
            for (String path : scope.paths()) {
                Node node = label.root;
                for (String seg : ScopePaths.segments(path)) {
                    node = node.children.computeIfAbsent(ScopePaths.fold(seg), k -> new Node());
                }
                node.ending.add(taskId);
            }
        }
        if (scope.pathIdentity() != null) {
            filesystemGroups.computeIfAbsent(groupKey(scope.pathIdentity()), k -> new HashSet<>()).add(taskId);
        }
    }

    void remove(String taskId, ClaimScope scope) {
        Label label = labels.get(scope.worktree());
        if (label != null) {
            label.all.remove(taskId);
            label.wholeTree.remove(taskId);
            if (!scope.wholeTree()) {
                for (String path : scope.paths()) {
                    removePath(label.root, ScopePaths.segments(path).toArray(String[]::new), 0, taskId);
                }
            }
            if (label.all.isEmpty()) {
                labels.remove(scope.worktree());
            }
        }
        if (scope.pathIdentity() != null) {
            String key = groupKey(scope.pathIdentity());
            Set<String> group = filesystemGroups.get(key);
            if (group != null) {
                group.remove(taskId);
                if (group.isEmpty()) {
                    filesystemGroups.remove(key);
                }
            }
        }
    }

    private static void removePath(Node node, String[] segs, int i, String taskId) {
        if (i == segs.length) {
            node.ending.remove(taskId);
            return;
        }
        String key = ScopePaths.fold(segs[i]);
        Node child = node.children.get(key);
        if (child == null) {
            return;
        }
        removePath(child, segs, i + 1, taskId);
        if (child.empty()) {
            node.children.remove(key);
        }
    }

    /** Task ids of claims that may conflict with {@code scope} (superset; may include the caller's own). */
    Set<String> candidates(ClaimScope scope) {
        Set<String> out = new HashSet<>();
        Label label = labels.get(scope.worktree());
        if (label != null) {
            if (scope.wholeTree()) {
                out.addAll(label.all);
            } else {
                out.addAll(label.wholeTree);
                for (String path : scope.paths()) {
                    Node node = label.root;
                    for (String seg : ScopePaths.segments(path)) {
                        node = node.children.get(ScopePaths.fold(seg));
                        if (node == null) {
                            break;
                        }
                        out.addAll(node.ending);
                    }
                    if (node != null) {
                        collect(node, out);
                    }
                }
            }
        }
        if (scope.pathIdentity() != null) {
            Set<String> group = filesystemGroups.get(groupKey(scope.pathIdentity()));
            if (group != null) {
                out.addAll(group);
            }
        }
        return out;
    }

    private static void collect(Node node, Set<String> out) {
        out.addAll(node.ending);
        for (Node child : node.children.values()) {
            collect(child, out);
        }
    }

    void clear() {
        labels.clear();
        filesystemGroups.clear();
    }

    private static String groupKey(PathIdentity id) {
        return id.filesystemNamespace() + '\u0000' + id.worktreeObjectId();
    }
}
