package org.switchboard.redsyn.directory;

import java.util.Set;

/** A person's place in one organisation: handle, admin flag and teams. */
public record Membership(long orgId, String org, String handle, boolean admin, Set<String> teams) {
}
