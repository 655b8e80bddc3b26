package org.switchboard.synapse.acl;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import org.switchboard.synapse.SynapseContext;
import org.switchboard.synapse.SynapseCounters;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * One hub's ACL layer: the loaded policy (or none), whether enforcement is required, the role-grant
 * store, where task control reads live claims, and the denial counters. The container wiring
 * {@link #configure configures} it while the hub is built; the frame pipeline's step 17, task control
 * and role-claim filtering read it. Unconfigured (unit tests, an open hub) it allows everything at
 * the gate and grants nothing that needs a policy.
 */
public final class AclLayer {

    /** Counter label of denials of a mutating type the access map does not know. */
    public static final String UNMAPPED = "unmapped";

    private static final Logger LOG = Logger.getLogger(AclLayer.class.getName());
    private static final Map<SynapseContext, AclLayer> LAYERS = Collections.synchronizedMap(new WeakHashMap<>());

    // the counters, not the context: the layer must not keep its weak map key alive
    private final SynapseCounters counters;
    private volatile AclPolicy policy;
    private volatile boolean requireAcl;
    private volatile RoleGrants roleGrants = RoleGrants.NONE;
    private volatile LiveClaims liveClaims = LiveClaims.NONE;
    private volatile String failure;

    AclLayer(SynapseContext ctx) {
        this.counters = ctx.counters();
    }

    /** The layer of the hub whose context is {@code ctx} (created unconfigured on first use). */
    public static AclLayer of(SynapseContext ctx) {
        return LAYERS.computeIfAbsent(ctx, AclLayer::new);
    }

    /**
     * Loads the configured files. A faulty file, or {@code hub.require-acl} without a policy, is a
     * {@link PolicyFileException} (logged once at SEVERE, naming the key): the hub must not start.
     */
    public void configure(AclSettings settings) {
        try {
            if (settings.requireAcl() && settings.policy() == null) {
                throw new PolicyFileException(AclPolicy.KEY, "hub.require-acl=true needs a policy file");
            }
            AclPolicy loaded = settings.policy() == null ? null : AclPolicy.load(settings.policy());
            RoleGrants grants = settings.roleGrants() == null ? RoleGrants.NONE : RoleGrantFile.load(settings.roleGrants());
            this.policy = loaded;
            this.roleGrants = grants;
            this.requireAcl = settings.requireAcl();
            if (loaded != null) {
                LOG.info("ACL policy loaded: " + loaded.rules().size() + " rules; enforcement "
                        + (settings.requireAcl() ? "required" : "off (task control and handler grants only)"));
            }
        } catch (PolicyFileException e) {
            // fail closed: should anything still reach the pipeline, step 17 refuses every frame
            this.failure = e.getMessage();
            LOG.severe("refusing to start: " + e.getMessage());
            throw e;
        }
    }

    /** Installs a loaded policy directly (tests and tools). */
    public void install(AclPolicy loaded, boolean require, RoleGrants grants) {
        this.policy = loaded;
        this.requireAcl = require;
        this.roleGrants = grants == null ? RoleGrants.NONE : grants;
    }

    /** Where task control reads the live claims (the claim feature registers its book here). */
    public void liveClaims(LiveClaims claims) {
        this.liveClaims = claims == null ? LiveClaims.NONE : claims;
    }

    /** The live claims seen by task control. */
    public LiveClaims liveClaims() {
        return liveClaims;
    }

    /** Why the configured files were refused (null when they loaded or none is configured). */
    public String failure() {
        return failure;
    }

    /** True when a policy is loaded. */
    public boolean policyLoaded() {
        return policy != null;
    }

    /** True when {@code hub.require-acl} is on (the gate checks every mapped frame). */
    public boolean enforced() {
        return requireAcl && policy != null;
    }

    /** The role-grant store (never null). */
    public RoleGrants roleGrants() {
        return roleGrants;
    }

    /** Role-claim enforcement on declared roles (see {@link RoleGrants#granted}). */
    public List<String> grantedRoles(String identity, List<String> declared) {
        return roleGrants.granted(identity, declared);
    }

    /**
     * The policy's decision for {@code sender} wanting {@code access}; with no policy loaded it
     * denies. Every denial is counted by permission.
     */
    public AclDecision decide(String sender, Access access) {
        AclPolicy current = policy;
        AclDecision decision = current == null
                ? new AclDecision(false, access.permission(), access.target(), "no ACL policy loaded")
                : current.decide(sender, access);
        if (!decision.allowed()) {
            denied(decision.permission());
        }
        return decision;
    }

    /** Counts one denial of {@code permission} for {@code /metrics}. */
    public void denied(String permission) {
        String key = Permissions.known(permission) ? permission : UNMAPPED;
        counters.aclDenials.computeIfAbsent(key, k -> new LongAdder()).increment();
    }
}
