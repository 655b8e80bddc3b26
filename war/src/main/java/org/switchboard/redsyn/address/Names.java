package org.switchboard.redsyn.address;

import java.util.regex.Pattern;

/** The name rule of every address level: lower case letters, digits, {@code .}, {@code -} and {@code _}. */
public final class Names {

    /** Regular expression of one name. */
    public static final String REGEX = "[a-z0-9._-]+";
    private static final Pattern NAME = Pattern.compile(REGEX);
    private static final Pattern SESSION = Pattern.compile("s[0-9]+");

    private Names() {
    }

    /** True when {@code name} is a valid name ({@code .} and {@code ..} alone are refused: they read as paths). */
    public static boolean valid(String name) {
        return name != null && name.length() <= 64 && NAME.matcher(name).matches()
                && !name.equals(".") && !name.equals("..");
    }

    /** True when {@code sid} looks like a relay session id ({@code s42}). */
    public static boolean validSession(String sid) {
        return sid != null && sid.length() <= 20 && SESSION.matcher(sid).matches();
    }
}
