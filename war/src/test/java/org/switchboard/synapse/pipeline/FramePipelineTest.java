package org.switchboard.synapse.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.switchboard.json.Jsons;

class FramePipelineTest {

    private static JsonObject json(String text) {
        return Jsons.PROVIDER.createReader(new StringReader(text)).readObject();
    }

    private static FrameInFlight decoded(String text) {
        FrameInFlight f = new FrameInFlight(null, text);
        f.frame = json(text);
        return f;
    }

    @Test
    void stepsRunInTheirDeclaredOrderUntilOneDealsWithTheFrame() {
        List<String> ran = new ArrayList<>();
        FramePipeline pipeline = FramePipeline.builder()
                .then("a", f -> ran.add("a"))
                .then("b", f -> !ran.add("b"))
                .then("c", f -> ran.add("c"))
                .build();
        assertFalse(pipeline.run(new FrameInFlight(null, "{}")));
        assertEquals(List.of("a", "b"), ran);
        assertEquals(List.of("a", "b", "c"), pipeline.names());
    }

    @Test
    void aStepDeclaredTwiceIsAMistake() {
        assertThrows(IllegalArgumentException.class,
                () -> FramePipeline.builder().then("x", f -> true).then("x", f -> true));
    }

    @Test
    void routingFieldsAreNormalisedAndAliasesResolved() {
        FrameInFlight f = decoded("{\"type\":\" Resource_Offer \",\"sender\":\" p/a \",\"target\":\"  \"}");
        assertTrue(new RoutingSteps.RoutingFields(null).pass(f));
        assertEquals("resource", f.type());
        assertEquals("p/a", f.sender());
        assertEquals("all", f.target());
        assertEquals(" p/a ", f.rawSender);
        assertNull(f.deliveryFrame);

        FrameInFlight bare = decoded("{}");
        assertTrue(new RoutingSteps.RoutingFields(null).pass(bare));
        assertEquals("chat", bare.type());
        assertEquals("", bare.sender());
    }

    @Test
    void deliveryRegistrationFieldsReachOnlyTheDeliveryBinding() {
        FrameInFlight f = decoded("{\"type\":\"heartbeat\",\"sender\":\"p/a\",\"protocol_version\":3,"
                + "\"delivery_session_token\":\"secret-session-token-0123456789\",\"delivery_capabilities\":{}}");
        assertTrue(new RoutingSteps.RoutingFields(null).pass(f));
        assertTrue(f.deliveryFrame.containsKey("delivery_session_token"));
        assertFalse(f.frame().containsKey("delivery_session_token"), "the token left the routed frame");
    }

    @Test
    void theTokenLeavesTheFrameAndNothingElseDoes() {
        FrameInFlight f = decoded("{\"type\":\"heartbeat\",\"sender\":\"p/a\",\"token\":\"t0k\",\"lease\":true}");
        assertTrue(new RegistrationSteps.TokenRemoved().pass(f));
        assertEquals(json("{\"type\":\"heartbeat\",\"sender\":\"p/a\",\"lease\":true}"), f.frame());

        FrameInFlight clean = decoded("{\"type\":\"chat\"}");
        JsonObject before = clean.frame();
        assertTrue(new RegistrationSteps.TokenRemoved().pass(clean));
        assertSame(before, clean.frame(), "a frame without a token is not copied");
    }
}
