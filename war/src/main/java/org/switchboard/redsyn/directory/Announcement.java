package org.switchboard.redsyn.directory;

/** The body of an announce: description, adapter, listening, and the policy (used only when listening). */
public record Announcement(String description, String adapter, boolean listening, Policy policy) {
}
