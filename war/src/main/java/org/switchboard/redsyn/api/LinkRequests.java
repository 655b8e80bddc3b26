package org.switchboard.redsyn.api;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.switchboard.redsyn.address.Names;

/** Validated bodies of the organisation link calls (JSON-B bound; failures are 422). */
public final class LinkRequests {

    private static final String NAME_MESSAGE = "must be lower-case letters, digits, '.', '-' or '_'";

    private LinkRequests() {
    }

    /** {@code POST /orgs/{org}/links}. */
    public static class Propose {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String other;
    }

    /** {@code PUT /orgs/{org}/links/{other}/expose}. */
    public static class Expose {
        @NotNull
        @Pattern(regexp = "agent|pub|sub", message = "must be agent, pub or sub")
        public String kind;
        @NotNull
        @Size(max = 200)
        public String pattern;
        /** False removes the exposure; absent means true. */
        public Boolean on;
    }

    /** {@code PUT /orgs/{org}/links/{other}/rules}: absent fields keep their value. */
    public static class Rules {
        @JsonbProperty("signed_only")
        public Boolean signedOnly;
        @Size(max = 2000)
        public String ips;
    }
}
