package org.switchboard.redsyn.keys;

/** Which node last listened for an agent: the later of its last take (in memory) and its last listening announce (stored). */
public final class ListeningNode {

    private ListeningNode() {
    }

    /**
     * The node name, or null when no node has listened.
     *
     * @param lastTakeAt   time of the last take, 0 when none since start
     * @param lastTakeNode node of the last take, null when none
     * @param announcedAt  time of the last announce with {@code listening: true}, 0 when none
     * @param announceNode node of that announce
     */
    public static String of(long lastTakeAt, String lastTakeNode, long announcedAt, String announceNode) {
        return lastTakeNode != null && lastTakeAt >= announcedAt ? lastTakeNode : announceNode;
    }
}
