package org.switchboard.ops.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The console's login rule and sessions: the operator token is compared in constant time (both
 * sides hashed first, so not even the length leaks), a session is a random id kept only here (the
 * cookie value) with its own CSRF token, idle sessions expire, and their number is bounded. The
 * token is held only as its hash and never logged.
 */
public final class ConsoleSessions {

    /** Name of the session cookie. */
    public static final String COOKIE = "sb_console";
    /** Sessions kept at most; the least recently used one goes first. */
    public static final int MAX_SESSIONS = 64;

    private static final HexFormat HEX = HexFormat.of();

    /** One logged-in console: cookie id, CSRF token, the principal journalled for its actions. */
    public record Session(String id, String csrf, String principal, long lastSeenMillis) {
    }

    private final byte[] tokenHash;
    private final long idleMillis;
    private final LongSupplier clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /**
     * @param token      the operator token; null or blank = console disabled
     * @param idleMillis a session unused this long is gone
     * @param clock      epoch milliseconds
     */
    public ConsoleSessions(String token, long idleMillis, LongSupplier clock) {
        this.tokenHash = token == null || token.isBlank() ? null : sha256(token);
        this.idleMillis = idleMillis;
        this.clock = clock;
    }

    /** True when an operator token is configured. */
    public boolean enabled() {
        return tokenHash != null;
    }

    /** A new session when {@code presented} is the token, else null. Constant time in the token's content and length. */
    public Session login(String presented) {
        if (tokenHash == null || presented == null) {
            return null;
        }
        if (!MessageDigest.isEqual(tokenHash, sha256(presented))) {
            return null;
        }
        evict();
        String id = randomHex(32);
        Session session = new Session(id, randomHex(32), "console:" + HEX.formatHex(sha256(id), 0, 4), clock.getAsLong());
        sessions.put(id, session);
        return session;
    }

    /** The live session of a cookie value (touched), or null. */
    public Session find(String id) {
        if (id == null || tokenHash == null) {
            return null;
        }
        Session s = sessions.get(id);
        long now = clock.getAsLong();
        if (s == null) {
            return null;
        }
        if (now - s.lastSeenMillis() > idleMillis) {
            sessions.remove(id, s);
            return null;
        }
        Session touched = new Session(s.id(), s.csrf(), s.principal(), now);
        sessions.replace(id, s, touched);
        return touched;
    }

    /** True when {@code presented} (the X-CSRF-Token header) is this session's CSRF token. */
    public static boolean csrfValid(Session session, String presented) {
        return session != null && presented != null
                && MessageDigest.isEqual(session.csrf().getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    /** Ends a session. */
    public void logout(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** Sessions held now (expired ones not yet swept included). */
    public int size() {
        return sessions.size();
    }

    /** The {@code Set-Cookie} value of a session: HttpOnly, SameSite=Strict, scoped to the console (Secure over TLS). */
    public static String cookie(Session session, boolean secure) {
        return COOKIE + "=" + session.id() + "; Path=/console; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** The {@code Set-Cookie} value that removes the session cookie. */
    public static String clearedCookie(boolean secure) {
        return COOKIE + "=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    private void evict() {
        long now = clock.getAsLong();
        sessions.values().removeIf(s -> now - s.lastSeenMillis() > idleMillis);
        while (sessions.size() >= MAX_SESSIONS) {
            Session oldest = null;
            for (Iterator<Session> it = sessions.values().iterator(); it.hasNext();) {
                Session s = it.next();
                if (oldest == null || s.lastSeenMillis() < oldest.lastSeenMillis()) {
                    oldest = s;
                }
            }
            if (oldest == null) {
                return;
            }
            sessions.remove(oldest.id());
        }
    }

    private String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HEX.formatHex(b);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
