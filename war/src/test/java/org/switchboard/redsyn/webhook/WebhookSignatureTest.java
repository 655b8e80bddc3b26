package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    @Test
    void hmacMatchesAPublishedVector() {
        // the widely published HMAC-SHA256 example (key "key")
        assertEquals("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
                WebhookSignature.hmacHex("key", "The quick brown fox jumps over the lazy dog"));
    }

    @Test
    void headerSignsTimeDotBody() {
        String body = "{\"v\":1,\"id\":\"m1\"}";
        String header = WebhookSignature.header("whsec_abc", 1790000000L, body);
        assertEquals("t=1790000000,v1=" + WebhookSignature.hmacHex("whsec_abc", "1790000000." + body), header);
        assertTrue(WebhookSignature.verify("whsec_abc", header, body, 1790000010L, 300));
    }

    @Test
    void verifyRejectsTamperingAnotherSecretAndStaleTimes() {
        String body = "{\"v\":1}";
        String header = WebhookSignature.header("s1", 1000L, body);
        assertFalse(WebhookSignature.verify("s2", header, body, 1000L, 300));
        assertFalse(WebhookSignature.verify("s1", header, body + " ", 1000L, 300));
        assertFalse(WebhookSignature.verify("s1", header, body, 1301L, 300));
        assertFalse(WebhookSignature.verify("s1", header.replace("t=1000", "t=1001"), body, 1000L, 300));
        assertFalse(WebhookSignature.verify("s1", "v1=abc", body, 1000L, 300));
        assertFalse(WebhookSignature.verify("s1", null, body, 1000L, 300));
    }

    @Test
    void secretsAreFreshAndLongEnough() {
        String a = WebhookSignature.newSecret();
        assertTrue(a.matches("whsec_[A-Za-z0-9_-]{43}"), a);
        assertNotEquals(a, WebhookSignature.newSecret());
    }
}
