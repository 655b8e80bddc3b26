package org.switchboard.synapse.chat;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.function.Predicate;
import org.switchboard.synapse.ConnectionRegistry;
import org.switchboard.synapse.addressing.Addressing;
import org.switchboard.synapse.wire.JsonFields;

/**
 * Who may see a chat when {@code hub.private-directed-messages} is on (synapse-core §7.4): everyone sees
 * broadcasts; a directed chat is seen only by its sender and its recipients (a sidecar counts as its
 * owner). The live fan-out and the history/resume queries both decide through this class.
 */
public final class PrivateDirectedVisibility {

    private PrivateDirectedVisibility() {
    }

    /** Whether a chat to {@code target} is restricted at all: private mode is on and the target is not a broadcast. */
    public static boolean restricted(boolean privateDirectedMode, String target) {
        return privateDirectedMode && !Addressing.isBroadcast(target);
    }

    /** Whether {@code viewer} (with {@code roles}) may see a chat from {@code sender} to {@code target}. */
    public static boolean visible(boolean privateDirectedMode, String target, String sender, String viewer, List<String> roles) {
        if (!restricted(privateDirectedMode, target)) {
            return true;
        }
        String owner = ConnectionRegistry.waiterOwner(viewer);
        return viewer.equals(sender) || owner.equals(sender)
                || Addressing.isRecipient(target, viewer, roles) || Addressing.isRecipient(target, owner, roles);
    }

    /** A filter over stored chat frames for one viewer; null when nothing is restricted, so callers skip filtering. */
    public static Predicate<JsonObject> filterFor(boolean privateDirectedMode, String viewer, List<String> roles) {
        if (!privateDirectedMode) {
            return null;
        }
        return f -> visible(true, JsonFields.string(f, "target"), JsonFields.string(f, "sender"), viewer, roles);
    }
}
