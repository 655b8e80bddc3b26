package org.switchboard.redsyn.message;

import org.switchboard.json.Jsons;

import org.switchboard.redsyn.directory.Tokens;

/**
 * The relay's own error replies, so that nothing is lost in silence: the sender of an undelivered
 * message gets {@code not delivered: ...} as a reply to it.
 */
public final class Notices {

    private Notices() {
    }

    /** Text for a message abandoned after {@code attempts} takes without an ack. */
    public static String abandoned(String agent, int attempts) {
        return "not delivered: " + agent + " took it " + attempts + " times and never confirmed it";
    }

    /** Text for a message whose TTL ran out. */
    public static String expired(String agent, int attempts) {
        return attempts == 0
                ? "not delivered: it expired before " + agent + " took it"
                : "not delivered: it expired before " + agent + " confirmed it";
    }

    /** True when the sender of {@code m} is told it was not delivered (never for the relay's own notices, nor for topic events: nobody answers those). */
    public static boolean deserved(MessageEntity m) {
        return !m.isNotice() && m.getFromPersonId() != null && m.getKind() != Kind.EVENT;
    }

    /** The error reply telling {@code m}'s sender why it was not delivered. */
    public static MessageEntity errorReply(MessageEntity m, String text, long now, long ttl) {
        String agent = agentPath(m.getToAddress());
        return new MessageEntity(Tokens.newId("n"), Kind.REPLY, now)
                .from(m.getToAgentId(), agent, null, null, m.getToOrg())
                .to(m.getFromAgentId(), m.getFromAddress(), m.getFromSessionId(), m.getFromPersonId(), m.getFromOrg())
                .content(m.getThread(), m.getMessageId(), now / 1000, ttl,
                        Jsons.PROVIDER.createObjectBuilder().add("type", "text/plain").add("text", text).build().toString(),
                        "[]", true, false)
                .asNotice();
    }

    /** {@code org/team/user/agent} of an address that may carry a session. */
    public static String agentPath(String address) {
        int hash = address.indexOf('#');
        return hash < 0 ? address : address.substring(0, hash);
    }
}
