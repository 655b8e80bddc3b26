package org.switchboard.redsyn.link;

/**
 * What one side of a link lets in from the other: only signed messages ({@code signed_only}, true by
 * default) and, optionally, only from some addresses ({@code ips}).
 */
public record LinkRules(boolean signedOnly, IpAllowList ips) {

    /** The rules of a new link: signed messages only, from any address. */
    public static final LinkRules DEFAULT = new LinkRules(true, IpAllowList.parse(""));
}
