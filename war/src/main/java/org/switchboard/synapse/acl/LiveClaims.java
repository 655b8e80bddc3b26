package org.switchboard.synapse.acl;

/** What task control needs from the claim book: the owner of the live, held claim on a task. */
@FunctionalInterface
public interface LiveClaims {

    /** Nobody holds anything (a hub without the claim feature). */
    LiveClaims NONE = taskId -> null;

    /** The owner of the live claim on {@code taskId} whose task is still held (not done or failed), or null. */
    String ownerOf(String taskId);
}
