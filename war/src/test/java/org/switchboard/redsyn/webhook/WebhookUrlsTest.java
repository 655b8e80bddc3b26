package org.switchboard.redsyn.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.switchboard.redsyn.RedsynException;

class WebhookUrlsTest {

    @ParameterizedTest
    @ValueSource(strings = {"https://hooks.example.com/redsyn", "https://api.acme.io:8443/in?x=1", "HTTPS://Hooks.Acme.COM/"})
    void httpsWithAPublicNameIsAccepted(String url) {
        assertEquals(url, WebhookUrls.check(url, false).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://hooks.acme.com/x", "ftp://hooks.acme.com/x", "ws://hooks.acme.com/x"})
    void otherSchemesAreRefused(String url) {
        RedsynException e = assertThrows(RedsynException.class, () -> WebhookUrls.check(url, false));
        assertEquals(422, e.status());
        assertTrue(e.getMessage().startsWith("url must be https with a public host name"), e.getMessage());
        assertTrue(e.getMessage().contains("is not https"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://10.0.0.1/x", "https://127.0.0.1:8443/x", "https://[::1]/x", "https://[fd00::5]:443/",
        "https://2130706433/", "https://0x7f.1/", "https://8.8.8.8/"})
    void ipLiteralsAreRefused(String url) {
        RedsynException e = assertThrows(RedsynException.class, () -> WebhookUrls.check(url, false));
        assertTrue(e.getMessage().contains("IP address"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://localhost/x", "https://localhost.:8443/", "https://api.localhost/", "https://printer.local/",
        "https://db.internal/", "https://nas.home.arpa/", "https://intranet/", "https://box.lan/"})
    void privateNamesAreRefused(String url) {
        RedsynException e = assertThrows(RedsynException.class, () -> WebhookUrls.check(url, false));
        assertEquals(422, e.status());
        assertTrue(e.getMessage().contains("not a public host name") || e.getMessage().contains("private or reserved"),
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "not a url", "/relative/path", "https://user:pw@hooks.acme.com/", "https://hooks.acme.com/#frag",
        "mailto:x@acme.com"})
    void malformedUrlsAreRefused(String url) {
        assertEquals(422, assertThrows(RedsynException.class, () -> WebhookUrls.check(url, false)).status());
    }

    @Test
    void nullIsRefusedAsMissing() {
        assertTrue(assertThrows(RedsynException.class, () -> WebhookUrls.check(null, false)).getMessage().startsWith("url is required"));
    }

    @Test
    void theLoopbackKnobAllowsOnlyHttpTo127001WithAPort() {
        assertEquals("http://127.0.0.1:8123/hook", WebhookUrls.check("http://127.0.0.1:8123/hook", true).toString());
        assertThrows(RedsynException.class, () -> WebhookUrls.check("http://127.0.0.1:8123/hook", false));
        assertThrows(RedsynException.class, () -> WebhookUrls.check("http://127.0.0.1/hook", true));
        assertThrows(RedsynException.class, () -> WebhookUrls.check("http://localhost:8123/hook", true));
        assertThrows(RedsynException.class, () -> WebhookUrls.check("http://10.0.0.2:8123/hook", true));
        assertThrows(RedsynException.class, () -> WebhookUrls.check("http://hooks.acme.com:8123/hook", true));
    }

    @Test
    void onlyPublicAddressesPassTheDeliveryTimeCheck() throws Exception {
        for (String internal : new String[] {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00::1", "::"}) {
            assertFalse(WebhookUrls.publicAddress(java.net.InetAddress.getByName(internal)), internal);
        }
        for (String external : new String[] {"8.8.8.8", "1.1.1.1", "100.128.0.1", "2606:4700::1111"}) {
            assertTrue(WebhookUrls.publicAddress(java.net.InetAddress.getByName(external)), external);
        }
    }

    @Test
    void recognisesTheLoopbackException() {
        assertTrue(WebhookUrls.isLoopbackHttp("http://127.0.0.1:9000/x"));
        assertFalse(WebhookUrls.isLoopbackHttp("https://127.0.0.1:9000/x"));
        assertFalse(WebhookUrls.isLoopbackHttp("http://127.0.0.2:9000/x"));
        assertFalse(WebhookUrls.isLoopbackHttp("::bad"));
    }
}
