package org.switchboard.json;

import jakarta.json.spi.JsonProvider;
import java.util.Map;

/**
 * The JSON-P provider, looked up once. {@code jakarta.json.Json}'s static factories run a
 * ServiceLoader lookup on every call, which dominated the SYNAPSE chat and REDSYN request hot paths.
 */
public final class Jsons {

    /** The shared provider (thread-safe factory methods). */
    public static final JsonProvider PROVIDER = JsonProvider.provider();

    /**
     * Longest number literal, in characters, Parsson parses (its own default is 1100). SYNAPSE admits
     * number literals of up to 4300 digits (synapse-core §6.2), checked before parsing; the margin
     * covers the sign, point and exponent characters around them.
     */
    public static final int MAX_NUMBER_CHARS = 4300 + 100;

    /** Reader and parser configuration that lets {@link #MAX_NUMBER_CHARS} through. */
    public static final Map<String, Object> LONG_NUMBERS = Map.of("org.eclipse.parsson.maxBigDecimalLength", MAX_NUMBER_CHARS);

    private Jsons() {
    }
}
