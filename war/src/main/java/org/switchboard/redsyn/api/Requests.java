package org.switchboard.redsyn.api;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.switchboard.redsyn.address.Names;

/** Validated request bodies (JSON-B bound, checked by Bean Validation; failures are 422). */
public final class Requests {

    private static final String NAME_MESSAGE = "must be lower-case letters, digits, '.', '-' or '_'";

    private Requests() {
    }

    /** {@code POST /redsyn/admin/persons}. */
    public static class NewPerson {
        @NotBlank
        @Email
        @Size(max = 254)
        public String email;
        @Pattern(regexp = "[a-z]+", message = "must be a plan name")
        public String plan;
    }

    /** {@code POST .../nodes}. */
    public static class NewNode {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String name;
    }

    /** {@code PUT /redsyn/admin/persons/{id}/plan}. */
    public static class PlanChange {
        @NotBlank
        public String plan;
    }

    /** {@code POST /orgs}. */
    public static class NewOrg {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String handle;
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String me;
    }

    /** {@code POST /orgs/{org}/teams}. */
    public static class NewTeam {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String handle;
    }

    /** {@code POST /orgs/{org}/teams/{team}/members}. */
    public static class NewTeamMember {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        public String who;
    }

    /** {@code POST /orgs/{org}/invites}. */
    public static class NewInvite {
        @NotBlank
        @Email
        @Size(max = 254)
        public String email;
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        public String team;
    }

    /** {@code POST /orgs/{org}/join}. */
    public static class Join {
        @NotNull
        @Pattern(regexp = Names.REGEX, message = NAME_MESSAGE)
        @Size(max = 64)
        public String me;
    }

    /** {@code PUT /agents/...}: the announce, with the policy. */
    public static class Announce {
        @Size(max = 2000)
        public String description;
        @Size(max = 200)
        public String adapter;
        public Boolean listening;
        @Size(max = 100)
        public List<@NotNull @Pattern(regexp = "org|org:" + Names.REGEX + "|team:" + Names.REGEX + "|" + Names.REGEX,
                message = "must be a handle, team:<team>, org or org:<org>") String> allow;
        @Pattern(regexp = "none|full", message = "must be none or full")
        public String trust;
        @JsonbProperty("signed_only")
        public Boolean signedOnly;
        @JsonbProperty("encrypted_only")
        public Boolean encryptedOnly;
    }

    /** {@code POST /inbox/.../ack}. */
    public static class Ack {
        @NotNull
        @Size(max = 1000)
        public List<@NotBlank String> ids;
    }

    /** {@code PUT /agents/.../sessions/{sid}}. */
    public static class Title {
        @NotNull
        @Size(max = 500)
        public String title;
    }
}
