package org.switchboard.redsyn.link;

import java.util.Locale;
import java.util.regex.Pattern;
import org.switchboard.redsyn.address.Names;

/**
 * What one side of a link exposes to the other: {@code agent} (agents they may see and write to),
 * {@code pub} (topics they may publish to), {@code sub} (topics they may listen to).
 */
public enum ExposureKind {
    AGENT(Pattern.compile("\\*|" + Names.REGEX + "/\\*|" + Names.REGEX + "/" + Names.REGEX + "/\\*|"
            + Names.REGEX + "/" + Names.REGEX + "/" + Names.REGEX), "team/user/agent, team/user/*, team/* or *"),
    PUB(topicPattern(), "team/name, team/* or *"),
    SUB(topicPattern(), "team/name, team/* or *");

    private final Pattern grammar;
    private final String forms;

    ExposureKind(Pattern grammar, String forms) {
        this.grammar = grammar;
        this.forms = forms;
    }

    private static Pattern topicPattern() {
        return Pattern.compile("\\*|" + Names.REGEX + "/\\*|" + Names.REGEX + "/" + Names.REGEX);
    }

    /** The wire name: {@code agent}, {@code pub} or {@code sub}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind with this wire name, or null. */
    public static ExposureKind fromWire(String wire) {
        for (ExposureKind k : values()) {
            if (k.wire().equals(wire)) {
                return k;
            }
        }
        return null;
    }

    /** True when {@code pattern} is one of this kind's forms. */
    public boolean validPattern(String pattern) {
        return pattern != null && grammar.matcher(pattern).matches();
    }

    /** The forms a pattern of this kind takes, for refusals. */
    public String forms() {
        return forms;
    }

    /**
     * True when {@code pattern} covers {@code path}, a path inside the exposing organisation
     * ({@code team/user/agent} for agents, {@code team/name} for topics). {@code *} covers the rest
     * of the path; elsewhere segments match exactly.
     */
    public static boolean covers(String pattern, String path) {
        if (pattern.equals("*")) {
            return true;
        }
        if (pattern.endsWith("/*")) {
            return path.startsWith(pattern.substring(0, pattern.length() - 1));
        }
        return pattern.equals(path);
    }
}
