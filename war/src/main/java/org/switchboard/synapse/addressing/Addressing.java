package org.switchboard.synapse.addressing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The addressing grammar of §4.9: broadcast detection, comma-separated parts, case-sensitive
 * shell-style globs ({@code *}, {@code ?}, {@code [...]}), inbox match ({@code is_recipient}),
 * wake match ({@code is_directed}) and the hub's directed-vs-audience classification.
 */
public final class Addressing {

    private Addressing() {
    }

    /** {@code "all"} or empty. */
    public static boolean isBroadcast(String target) {
        if (target == null) {
            return true;
        }
        String t = target.trim();
        return t.isEmpty() || t.equals("all");
    }

    /** Directed: non-empty, not {@code "all"}, no {@code *} (roles, bare projects and name lists are directed). */
    public static boolean isDirectedTarget(String target) {
        return !isBroadcast(target) && target.indexOf('*') < 0;
    }

    /** Trimmed non-empty comma-separated parts. */
    public static List<String> parts(String target) {
        List<String> parts = new ArrayList<>(2);
        if (target.indexOf(',') < 0) {
            String t = target.trim();
            if (!t.isEmpty()) {
                parts.add(t);
            }
            return parts;
        }
        for (String part : target.split(",")) {
            String t = part.trim();
            if (!t.isEmpty()) {
                parts.add(t);
            }
        }
        return parts;
    }

    /** Text before the first {@code /} (the whole name when there is none). */
    public static String project(String name) {
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(0, slash);
    }

    /** Inbox match: broadcast, or a part matching the name, its bare project or one of its roles. */
    public static boolean isRecipient(String target, String name, Collection<String> roles) {
        return isBroadcast(target) || matchesAny(parts(target), name, roles);
    }

    /**
     * Inbox match against already-split parts of a non-broadcast target (the hot path parses a
     * target once per chat, not once per candidate name).
     */
    public static boolean matchesAny(List<String> parts, String name, Collection<String> roles) {
        for (int i = 0, n = parts.size(); i < n; i++) {
            String part = parts.get(i);
            if (hasMeta(part)) {
                if (match(part, 0, name, 0) || match(part, 0, project(name), 0)) {
                    return true;
                }
            } else if (part.equals(name) || isProjectOf(part, name)) {
                return true;
            }
            for (String role : roles) {
                if (globMatch(part, role)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code project} is the text of {@code name} before its first {@code /} (no allocation). */
    private static boolean isProjectOf(String project, String name) {
        int slash = name.indexOf('/');
        return slash < 0 ? project.equals(name) : slash == project.length() && name.startsWith(project);
    }

    /** Wake match: never for broadcasts; a part must match the full name or one of its roles. */
    public static boolean isDirected(String target, String name, Collection<String> roles) {
        if (isBroadcast(target)) {
            return false;
        }
        for (String part : parts(target)) {
            if (globMatch(part, name)) {
                return true;
            }
            for (String role : roles) {
                if (globMatch(part, role)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when the pattern contains a glob metacharacter. */
    public static boolean hasMeta(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*' || c == '?' || c == '[') {
                return true;
            }
        }
        return false;
    }

    /** Case-sensitive shell-style match of the whole text ({@code fnmatchcase} semantics). */
    public static boolean globMatch(String pattern, String text) {
        if (!hasMeta(pattern)) {
            return pattern.equals(text);
        }
        return match(pattern, 0, text, 0);
    }

    private static boolean match(String p, int pi, String t, int ti) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '*') {
                while (pi < p.length() && p.charAt(pi) == '*') {
                    pi++;
                }
                if (pi == p.length()) {
                    return true;
                }
                for (int k = ti; k <= t.length(); k++) {
                    if (match(p, pi, t, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (ti >= t.length()) {
                return false;
            }
            if (c == '?') {
                pi++;
                ti++;
            } else if (c == '[') {
                int end = classEnd(p, pi);
                if (end < 0) {
                    // an unclosed '[' is a literal character
                    if (t.charAt(ti) != '[') {
                        return false;
                    }
                    pi++;
                    ti++;
                } else {
                    if (!classMatches(p, pi + 1, end, t.charAt(ti))) {
                        return false;
                    }
                    pi = end + 1;
                    ti++;
                }
            } else {
                if (c != t.charAt(ti)) {
                    return false;
                }
                pi++;
                ti++;
            }
        }
        return ti == t.length();
    }

    /** Index of the closing {@code ]} of a class starting at {@code start}, or -1. */
    private static int classEnd(String p, int start) {
        int i = start + 1;
        if (i < p.length() && p.charAt(i) == '!') {
            i++;
        }
        if (i < p.length() && p.charAt(i) == ']') {
            i++; // a leading ']' is literal
        }
        while (i < p.length() && p.charAt(i) != ']') {
            i++;
        }
        return i < p.length() ? i : -1;
    }

    private static boolean classMatches(String p, int from, int end, char ch) {
        boolean negate = from < end && p.charAt(from) == '!';
        int i = negate ? from + 1 : from;
        boolean found = false;
        boolean first = true;
        while (i < end) {
            char lo = p.charAt(i);
            if (lo == ']' && !first) {
                break;
            }
            first = false;
            if (i + 2 < end && p.charAt(i + 1) == '-') {
                char hi = p.charAt(i + 2);
                if (lo <= ch && ch <= hi) {
                    found = true;
                }
                i += 3;
            } else {
                if (lo == ch) {
                    found = true;
                }
                i++;
            }
        }
        return found != negate;
    }
}
