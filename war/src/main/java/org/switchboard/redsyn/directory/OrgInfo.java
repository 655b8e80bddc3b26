package org.switchboard.redsyn.directory;

/** What the relay keeps at hand about an organisation. */
public record OrgInfo(long id, String handle, String pinnedVersion, long creatorPersonId) {
}
