package org.switchboard.synapse.idempotency;

import jakarta.json.spi.JsonProvider;

/**
 * One cached JSON-P provider for the coordination rules: the static {@code Json} factory methods
 * look the provider up through ServiceLoader on every call, which costs more than a claim decision.
 */
public final class JsonFactory {

    /** The shared provider (thread-safe per the JSON-P contract). */
    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonFactory() {
    }
}
