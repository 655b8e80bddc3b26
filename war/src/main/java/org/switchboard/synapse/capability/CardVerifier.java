package org.switchboard.synapse.capability;

import static org.switchboard.json.Jsons.PROVIDER;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Computes the advisory {@code verification} object of a capability card (synapse-advanced §6.8);
 * {@link SignedCardVerifier} checks Ed25519 signatures against an operator trust bundle.
 * Verification never grants authority and never hides a card.
 */
@FunctionalInterface
public interface CardVerifier {

    /**
     * The {@code verification} object for a card at hub time {@code now} (the card is the stable
     * card: no {@code verification} and no {@code advertised_at} yet).
     */
    JsonObject verify(JsonObject card, double now);

    /**
     * The verifier of a hub without a card trust bundle: unsigned cards are
     * {@code missing_signature}, non-object signatures {@code bad_signature}, and signed cards
     * {@code unknown_key} (no key can be trusted).
     */
    CardVerifier WITHOUT_TRUST_BUNDLE = (card, now) -> {
        JsonValue signature = card.get("signature");
        if (signature == null || signature.getValueType() == JsonValue.ValueType.NULL) {
            return PROVIDER.createObjectBuilder().add("detail", "unsigned card").add("result", "missing_signature").build();
        }
        if (signature.getValueType() != JsonValue.ValueType.OBJECT) {
            return PROVIDER.createObjectBuilder().add("detail", "signature is not an object").add("result", "bad_signature").build();
        }
        var b = PROVIDER.createObjectBuilder().add("detail", "no card trust bundle configured").add("result", "unknown_key");
        if (signature.asJsonObject().get("key_id") instanceof JsonString keyId) {
            b.add("key_id", keyId.getString());
        }
        return b.build();
    };
}
