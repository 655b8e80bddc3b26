package org.switchboard.synapse.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Name ownership leases (§4.5, synapse-advanced §6.5): a bearer token minted on request, required
 * (constant-time compare) for every later bind of the name, lapsing after the owner has been offline
 * for the TTL. The hub keeps only the token's SHA-256, so a heap dump does not hand out leases.
 */
public final class NameLeases {

    /** Default offline time after which a lease lapses (seconds; {@code hub.lease-offline-ttl-seconds}). */
    public static final double DEFAULT_OFFLINE_TTL = 3600;

    private final double offlineTtl;

    private static final SecureRandom RANDOM = new SecureRandom();
    private final ConcurrentHashMap<String, Lease> leases = new ConcurrentHashMap<>();

    /** Leases with the default offline TTL. */
    public NameLeases() {
        this(DEFAULT_OFFLINE_TTL);
    }

    /** Leases lapsing after {@code offlineTtlSeconds} offline (a non-positive value means the default). */
    public NameLeases(double offlineTtlSeconds) {
        this.offlineTtl = offlineTtlSeconds > 0 ? offlineTtlSeconds : DEFAULT_OFFLINE_TTL;
    }

    private static final class Lease {
        final byte[] tokenSha256;
        volatile double offlineSince = Double.NaN;

        Lease(byte[] tokenSha256) {
            this.tokenSha256 = tokenSha256;
        }
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** True when {@code name} holds a live lease that {@code presented} does not match. */
    public boolean blocks(String name, String presented, double now) {
        Lease lease = live(name, now);
        if (lease == null) {
            return false;
        }
        return presented == null || !MessageDigest.isEqual(lease.tokenSha256, sha256(presented));
    }

    /** Mints a lease for a name without one; returns the token, or null when one already exists. */
    public String mintIfAbsent(String name, double now) {
        if (live(name, now) != null) {
            Lease lease = leases.get(name);
            lease.offlineSince = Double.NaN;
            return null;
        }
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        leases.put(name, new Lease(sha256(token)));
        return token;
    }

    /** True when {@code name} holds a lease that has not lapsed under the offline TTL (§7.1 gate 11). */
    public boolean held(String name, double now) {
        return live(name, now) != null;
    }

    /** Drops the lease of {@code name} (an applied governed pin reclaim, §7.1). */
    public void revoke(String name) {
        leases.remove(name);
    }

    /** Marks the owner online (lease timer stops). */
    public void online(String name) {
        Lease lease = leases.get(name);
        if (lease != null) {
            lease.offlineSince = Double.NaN;
        }
    }

    /** Marks the owner offline (lease timer starts). */
    public void offline(String name, double now) {
        Lease lease = leases.get(name);
        if (lease != null) {
            lease.offlineSince = now;
        }
    }

    private Lease live(String name, double now) {
        Lease lease = leases.get(name);
        if (lease != null && !Double.isNaN(lease.offlineSince) && now - lease.offlineSince > offlineTtl) {
            leases.remove(name, lease);
            return null;
        }
        return lease;
    }
}
