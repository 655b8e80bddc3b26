package org.switchboard.redsyn.directory;

import java.security.Principal;

/** Who is calling: the node a token belongs to, and the person it speaks for. */
public record Caller(long personId, String email, long nodeId, String node) implements Principal {

    @Override
    public String getName() {
        return email;
    }
}
