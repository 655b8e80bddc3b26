package org.switchboard.synapse.chat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.addressing.Addressing;

/**
 * Recipient resolution of §7.3: the sorted logical recipients a target matches among bound names
 * (sidecars counted as their owner), split into consume-live and stale for directed targets.
 */
public record Recipients(List<String> matched, List<String> live, List<String> stale, boolean directed) {

    /** Resolves {@code target} for a chat from {@code sender} against the current bindings. */
    public static Recipients resolve(String target, String sender, ConnectionRegistry registry, double now) {
        boolean directed = Addressing.isDirectedTarget(target);
        boolean broadcast = Addressing.isBroadcast(target);
        List<String> parts = broadcast ? List.of() : Addressing.parts(target);
        TreeSet<String> matched = new TreeSet<>();
        for (String name : registry.boundNames()) {
            if (name.equals(sender)) {
                continue;
            }
            String owner = ConnectionRegistry.waiterOwner(name);
            if (!owner.equals(name) && !owner.equals(sender)
                    && (broadcast || Addressing.matchesAny(parts, owner, union(registry.rolesOf(name), registry.rolesOf(owner))))) {
                matched.add(owner);
                continue;
            }
            if (broadcast || Addressing.matchesAny(parts, name, registry.rolesOf(name))) {
                matched.add(name);
            }
        }
        List<String> all = List.copyOf(matched);
        if (!directed) {
            return new Recipients(all, all, List.of(), false);
        }
        List<String> live = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (String name : all) {
            (registry.consumeLive(name, now) ? live : stale).add(name);
        }
        return new Recipients(all, List.copyOf(live), List.copyOf(stale), true);
    }

    private static Collection<String> union(List<String> a, List<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        if (a.isEmpty()) {
            return b;
        }
        Set<String> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }
}
