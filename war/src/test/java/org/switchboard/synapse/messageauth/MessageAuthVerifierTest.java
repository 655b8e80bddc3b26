package org.switchboard.synapse.messageauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

/** Every §6.3 result string, and the fixed order in which the verifier checks them. */
class MessageAuthVerifierTest {

    private static final double NOW = 1_790_000_000.0;
    private static final MessageAuthKeys KEYS = MessageAuthKeys.of(
            new MessageAuthKeys.Key("k1", "secret-one".getBytes(StandardCharsets.UTF_8), Set.of("team/alice"), false),
            new MessageAuthKeys.Key("k-old", "secret-old".getBytes(StandardCharsets.UTF_8), Set.of("team/alice"), true));

    private final MessageAuthVerifier verifier =
            new MessageAuthVerifier(KEYS, new NonceCache(16, NonceStore.NONE, NOW), 10, 1);

    /** A claim by {@code sender} with an {@code auth} whose value is the right MAC under {@code secret}. */
    static JsonObject signed(String sender, String kid, String secret, String nonce, double timestamp, Object sequence) {
        JsonObjectBuilder auth = Jsons.PROVIDER.createObjectBuilder().add("alg", "hmac-sha256").add("kid", kid)
                .add("nonce", nonce).add("timestamp", timestamp);
        if (sequence instanceof Integer i) {
            auth.add("sequence", i);
        } else if (sequence instanceof String s) {
            auth.add("sequence", s);
        }
        JsonObject authObject = auth.build();
        JsonObject unsigned = Jsons.PROVIDER.createObjectBuilder().add("type", "claim").add("sender", sender)
                .add("task_id", "t-1").add("auth", authObject).build();
        String mac = MacInput.hmacHex(secret.getBytes(StandardCharsets.UTF_8), MacInput.bytes(unsigned));
        return Jsons.PROVIDER.createObjectBuilder(unsigned)
                .add("auth", Jsons.PROVIDER.createObjectBuilder(authObject).add("value", mac)).build();
    }

    private String verify(JsonObject frame) {
        return verifier.verify(frame, "team/alice", NOW);
    }

    @Test
    void aCorrectMacIsOk() {
        assertEquals("ok", verify(signed("team/alice", "k1", "secret-one", "n1", NOW, 1)));
    }

    @Test
    void noAuthIsMissing() {
        assertEquals("missing", verify(Jsons.PROVIDER.createObjectBuilder().add("type", "claim").build()));
        assertEquals("missing", verify(Jsons.PROVIDER.createObjectBuilder().add("type", "claim").add("auth", "x").build()));
    }

    @Test
    void anUnknownKidIsUnknownKey() {
        assertEquals("unknown_key", verify(signed("team/alice", "k9", "secret-one", "n1", NOW, 1)));
    }

    @Test
    void aRevokedKeyIsRevokedEvenWithItsRightMac() {
        assertEquals("revoked_key", verify(signed("team/alice", "k-old", "secret-old", "n1", NOW, 1)));
    }

    @Test
    void aSenderOutsideTheKeyOrUnlikeTheBoundNameIsSenderMismatch() {
        JsonObject frame = signed("team/alice", "k1", "secret-one", "n1", NOW, 1);
        assertEquals("sender_mismatch", verifier.verify(frame, "team/bob", NOW));
        assertEquals("sender_mismatch", verify(signed("team/mallory", "k1", "secret-one", "n2", NOW, 1)));
    }

    @Test
    void aWrongMacATamperedFieldOrAMalformedAuthIsBadAuthentication() {
        assertEquals("bad_authentication", verify(signed("team/alice", "k1", "wrong-secret", "n1", NOW, 1)));
        JsonObject tampered = Jsons.PROVIDER.createObjectBuilder(signed("team/alice", "k1", "secret-one", "n1", NOW, 1))
                .add("task_id", "t-2").build();
        assertEquals("bad_authentication", verify(tampered));
        JsonObject noAlg = signed("team/alice", "k1", "secret-one", "n1", NOW, 1);
        JsonObject wrongAlg = Jsons.PROVIDER.createObjectBuilder(noAlg).add("auth",
                Jsons.PROVIDER.createObjectBuilder(noAlg.getJsonObject("auth")).add("alg", "hmac-md5")).build();
        assertEquals("bad_authentication", verify(wrongAlg));
    }

    @Test
    void aTimestampOutsideTheWindowIsExpired() {
        assertEquals("expired", verify(signed("team/alice", "k1", "secret-one", "n1", NOW - 10.5, 1)));
        assertEquals("expired", verify(signed("team/alice", "k1", "secret-one", "n2", NOW + 1.5, 1)));
        assertEquals("ok", verify(signed("team/alice", "k1", "secret-one", "n3", NOW - 10, 1)));
        assertEquals("ok", verify(signed("team/alice", "k1", "secret-one", "n4", NOW + 1, 1)));
    }

    @Test
    void aSequenceThatIsNotACountIsSequenceMismatch() {
        assertEquals("sequence_mismatch", verify(signed("team/alice", "k1", "secret-one", "n1", NOW, "17")));
        assertEquals("sequence_mismatch", verify(signed("team/alice", "k1", "secret-one", "n2", NOW, -1)));
    }

    @Test
    void aSecondUseOfTheNonceIsReplayed() {
        JsonObject frame = signed("team/alice", "k1", "secret-one", "n1", NOW, 1);
        assertEquals("ok", verify(frame));
        assertEquals("replayed", verify(frame));
        // a fresh MAC over another frame with the same nonce is still a replay
        assertEquals("replayed", verify(signed("team/alice", "k1", "secret-one", "n1", NOW, 2)));
    }

    @Test
    void theMacIsCheckedBeforeTheClockAndTheCacheSoForgeriesBurnNoNonce() {
        // an expired forgery reads bad_authentication, and leaves the nonce usable
        assertEquals("bad_authentication", verify(signed("team/alice", "k1", "forged", "n1", NOW - 60, 1)));
        assertEquals("bad_authentication", verify(signed("team/alice", "k1", "forged", "n1", NOW, 1)));
        assertEquals("ok", verify(signed("team/alice", "k1", "secret-one", "n1", NOW, 1)));
    }
}
