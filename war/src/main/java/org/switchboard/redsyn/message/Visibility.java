package org.switchboard.redsyn.message;

/**
 * How much of a session a person sees: its owner everything, a participant that session and its own
 * messages, the rest of the organisation only that it exists, anyone else nothing.
 */
public enum Visibility {
    OWNER, PARTICIPANT, EXISTS, NONE;

    /**
     * @param owner       the person owns the session's agent
     * @param participant the person sent into it or owns an agent it answered
     * @param orgMember   the person is in the agent's organisation
     */
    public static Visibility of(boolean owner, boolean participant, boolean orgMember) {
        if (owner) {
            return OWNER;
        }
        if (participant) {
            return PARTICIPANT;
        }
        return orgMember ? EXISTS : NONE;
    }

    /** True when a message of the session may be shown to this person. */
    public boolean shows(boolean ownMessage) {
        return this == OWNER || (this == PARTICIPANT && ownMessage);
    }
}
