package org.switchboard.synapse.federation.outbound;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * A hub-qualified target {@code PROJECT/seat@HUB_ID} (synapse-advanced §4.1) and the origin's
 * validation of it (§4.6): parsed on the last {@code @}; the seat must be one single seat.
 */
public record HubAddress(String seat, String hubId) {

    /** The HUB_ID grammar of §4.1. */
    public static final Pattern HUB_ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");
    /** Longest seat part, in characters. */
    public static final int MAX_SEAT_CHARS = 256;

    static final String NOT_ONE_SEAT = "Cross-hub target must be exactly one seat";
    static final String INVALID_ADDRESS = "Invalid hub-qualified address: expected PROJECT/seat@HUB_ID";
    static final String NOT_SINGLE = "Cross-hub target refused: the seat must be one named seat (not 'all', a glob or an audience)";

    /** True when {@code target} names a seat on another hub (it contains {@code @}). */
    public static boolean qualified(String target) {
        return target != null && target.indexOf('@') >= 0;
    }

    /** The address, or null when it does not parse (bad hub id or seat grammar). */
    public static HubAddress parse(String target) {
        if (target == null) {
            return null;
        }
        int at = target.lastIndexOf('@');
        if (at < 0) {
            return null;
        }
        String seat = target.substring(0, at);
        String hub = target.substring(at + 1);
        if (!HUB_ID.matcher(hub).matches() || !validSeat(seat)) {
            return null;
        }
        return new HubAddress(seat, hub);
    }

    /** The seat grammar of §4.1: non-empty, at most 256 characters, no {@code @}, no padding, no control characters. */
    static boolean validSeat(String seat) {
        if (seat.isEmpty() || seat.length() > MAX_SEAT_CHARS || seat.indexOf('@') >= 0 || !seat.equals(seat.strip())) {
            return false;
        }
        for (int i = 0; i < seat.length(); i++) {
            char c = seat.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** The single-seat rule of §4.1: not empty or padded, not {@code all}, none of {@code , * ? [}. */
    public static boolean singleSeat(String seat) {
        if (seat == null || seat.isEmpty() || !seat.equals(seat.strip()) || "all".equals(seat)) {
            return false;
        }
        for (int i = 0; i < seat.length(); i++) {
            char c = seat.charAt(i);
            if (c == ',' || c == '*' || c == '?' || c == '[') {
                return false;
            }
        }
        return true;
    }

    /**
     * The origin's refusal text for a hub-qualified chat target (§4.6, first failure wins), or null when
     * it may be forwarded to one of {@code peers}.
     */
    public static String refusal(String target, Set<String> peers) {
        if (target.indexOf(',') >= 0) {
            return NOT_ONE_SEAT;
        }
        HubAddress address = parse(target);
        if (address == null) {
            return INVALID_ADDRESS;
        }
        if (!singleSeat(address.seat())) {
            return NOT_SINGLE;
        }
        if (!peers.contains(address.hubId())) {
            return unknownPeer(address.hubId());
        }
        return null;
    }

    /** The refusal for a hub that is not a configured message peer (the id passed the grammar: safe to echo). */
    static String unknownPeer(String hubId) {
        return "Hub '" + hubId + "' is not a configured message peer";
    }

    /** The name as seen across hubs: {@code name@hubId}. */
    public static String qualify(String name, String hubId) {
        return name + "@" + hubId;
    }
}
