package org.switchboard.redsyn.plan;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the plan table from configuration: the document's free, pro and enterprise plans, changed
 * or extended by keys {@code redsyn.plans.<plan>.<limit>} (environment {@code REDSYN_PLANS_<PLAN>_<LIMIT>}).
 * A limit a new plan leaves unset is Free's. Values are whole numbers, or {@code unlimited} / {@code -1}.
 */
public final class PlanTable {

    /** Prefix of every plan key. */
    public static final String PREFIX = "redsyn.plans.";

    /** The limit keys, in the order of the document's table. */
    public static final Set<String> KEYS = Set.of("messages-per-day", "file-bytes", "ttl-max-seconds", "agents", "links", "webhooks");

    /** Plan names: lower-case letters (what the admin API accepts). */
    private static final Pattern NAME = Pattern.compile("[a-z]+");
    private static final Pattern DOTTED = Pattern.compile("redsyn\\.plans\\.([a-z]+)\\.([a-z-]+)");
    private static final Pattern ENV = Pattern.compile(
            "REDSYN_PLANS_([A-Z]+)_(MESSAGES_PER_DAY|FILE_BYTES|TTL_MAX_SECONDS|AGENTS|LINKS|WEBHOOKS)");

    private PlanTable() {
    }

    /**
     * The plans by name, built-in ones first.
     *
     * @param propertyNames the dotted names configuration enumerates
     * @param envNames      environment variable names (not enumerated as dotted names by MicroProfile Config)
     * @param lookup        the configured value of a dotted key (any source, environment included)
     * @throws IllegalArgumentException for a key naming an unknown limit or a value that is not a limit
     */
    public static Map<String, Plan> build(Iterable<String> propertyNames, Iterable<String> envNames,
                                          Function<String, Optional<String>> lookup) {
        Set<String> named = new TreeSet<>();
        for (String property : propertyNames) {
            if (!property.startsWith(PREFIX)) {
                continue;
            }
            Matcher m = DOTTED.matcher(property);
            if (!m.matches() || !KEYS.contains(m.group(2))) {
                throw new IllegalArgumentException(property + ": plan keys are redsyn.plans.<plan>.<limit>, plan in "
                        + "lower-case letters, limit one of " + new TreeSet<>(KEYS));
            }
            named.add(m.group(1));
        }
        for (String env : envNames) {
            Matcher m = ENV.matcher(env);
            if (m.matches()) {
                named.add(m.group(1).toLowerCase(Locale.ROOT));
            }
        }
        Map<String, Plan> plans = new LinkedHashMap<>();
        Plan free = configure(Plan.FREE, "free", lookup);
        plans.put("free", free);
        plans.put("pro", configure(Plan.PRO, "pro", lookup));
        plans.put("enterprise", configure(Plan.ENTERPRISE, "enterprise", lookup));
        for (String name : named) {
            if (!plans.containsKey(name) && NAME.matcher(name).matches()) {
                plans.put(name, configure(free, name, lookup));
            }
        }
        return plans;
    }

    private static Plan configure(Plan base, String name, Function<String, Optional<String>> lookup) {
        return new Plan(name,
                limit(lookup, name, "messages-per-day", base.messagesPerDay()),
                limit(lookup, name, "file-bytes", base.filesPendingBytes()),
                limit(lookup, name, "ttl-max-seconds", base.maxTtlSeconds()),
                limit(lookup, name, "agents", base.agents()),
                limit(lookup, name, "links", base.links()),
                limit(lookup, name, "webhooks", base.webhooks()),
                base.maxBodyBytes(), base.maxZipBytes());
    }

    private static long limit(Function<String, Optional<String>> lookup, String plan, String key, long fallback) {
        String dotted = PREFIX + plan + "." + key;
        Optional<String> value = lookup.apply(dotted).map(String::trim).filter(v -> !v.isEmpty());
        if (value.isEmpty()) {
            return fallback;
        }
        return parse(dotted, value.get());
    }

    /** A limit value: a whole number of at least 0, or {@code unlimited} / {@code -1} (stored as -1). */
    static long parse(String key, String value) {
        if (value.equalsIgnoreCase("unlimited") || value.equals("-1")) {
            return -1;
        }
        try {
            long n = Long.parseLong(value.replace("_", ""));
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + "=" + value + ": a limit is a whole number of at least 0, or unlimited");
    }
}
