package org.switchboard.json;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once. {@code jakarta.json.Json}'s static factories run a
 * ServiceLoader lookup on every call, which dominated the SYNAPSE chat and REDSYN request hot paths.
 */
public final class Jsons {

    /** The shared provider (thread-safe factory methods). */
    public static final JsonProvider PROVIDER = JsonProvider.provider();

    private Jsons() {
    }
}
