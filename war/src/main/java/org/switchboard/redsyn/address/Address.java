package org.switchboard.redsyn.address;

/**
 * A full agent address {@code org/team/user/agent}, optionally with a session part: {@code #s42}
 * names a session, {@code #new} asks for a new one.
 */
public record Address(String org, String team, String user, String agent, String session) {

    /** The session part that asks the relay to open a new session. */
    public static final String NEW_SESSION = "new";

    public Address {
        check(org, "organisation");
        check(team, "team");
        check(user, "user");
        check(agent, "agent");
        if (session != null && !session.equals(NEW_SESSION) && !Names.validSession(session)) {
            throw new AddressException("session '" + session + "' must be sN or new");
        }
    }

    private static void check(String name, String level) {
        if (!Names.valid(name)) {
            throw new AddressException(level + " name '" + (name == null ? "" : name)
                    + "' must be lower-case letters, digits, '.', '-' or '_'");
        }
    }

    /** Parses a full address ({@code org/team/user/agent[#session]}). */
    public static Address parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new AddressException("address is empty");
        }
        String session = null;
        String path = text;
        int hash = text.indexOf('#');
        if (hash >= 0) {
            session = text.substring(hash + 1);
            path = text.substring(0, hash);
        }
        String[] parts = path.split("/", -1);
        if (parts.length != 4) {
            throw new AddressException("'" + text + "' is not a full address org/team/user/agent");
        }
        return new Address(parts[0], parts[1], parts[2], parts[3], session);
    }

    /** The same agent without a session part. */
    public Address agentOnly() {
        return session == null ? this : new Address(org, team, user, agent, null);
    }

    /** The same agent with this session part (null for none). */
    public Address withSession(String sid) {
        return new Address(org, team, user, agent, sid);
    }

    /** True when the session part is {@code #new}. */
    public boolean wantsNewSession() {
        return NEW_SESSION.equals(session);
    }

    /** {@code org/team/user/agent}, without the session. */
    public String agentPath() {
        return org + "/" + team + "/" + user + "/" + agent;
    }

    @Override
    public String toString() {
        return session == null ? agentPath() : agentPath() + "#" + session;
    }
}
