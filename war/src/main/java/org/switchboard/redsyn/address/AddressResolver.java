package org.switchboard.redsyn.address;

/**
 * Resolves the short forms of an address from the sender's full address: {@code close} (the
 * sender's own user and team), {@code ana/close} (the sender's team), {@code finance/ana/close}
 * (the sender's organisation). Across organisations only the full address works, and it always does.
 */
public final class AddressResolver {

    /** Prefix of topic addresses. */
    public static final String TOPIC_PREFIX = "topic:";

    private AddressResolver() {
    }

    /** True for {@code topic:...} addresses. */
    public static boolean isTopic(String text) {
        return text != null && text.startsWith(TOPIC_PREFIX);
    }

    /** The full address {@code text} means when sent by {@code sender}. */
    public static Address resolve(String text, Address sender) {
        if (text == null || text.isBlank()) {
            throw new AddressException("address is empty");
        }
        if (isTopic(text)) {
            throw new AddressException("'" + text + "' is a topic, not an agent");
        }
        String session = null;
        String path = text;
        int hash = text.indexOf('#');
        if (hash >= 0) {
            session = text.substring(hash + 1);
            path = text.substring(0, hash);
        }
        String[] p = path.split("/", -1);
        return switch (p.length) {
            case 1 -> new Address(sender.org(), sender.team(), sender.user(), p[0], session);
            case 2 -> new Address(sender.org(), sender.team(), p[0], p[1], session);
            case 3 -> new Address(sender.org(), p[0], p[1], p[2], session);
            case 4 -> new Address(p[0], p[1], p[2], p[3], session);
            default -> throw new AddressException("'" + text + "' has too many parts for an address");
        };
    }
}
