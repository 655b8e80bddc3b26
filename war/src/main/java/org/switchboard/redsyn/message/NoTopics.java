package org.switchboard.redsyn.message;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import org.switchboard.redsyn.RedsynException;
import org.switchboard.redsyn.directory.AgentInfo;
import org.switchboard.redsyn.directory.Caller;

/** Until topics exist: events are refused with 501, nothing is stored. */
@ApplicationScoped
public class NoTopics implements TopicPublisher {

    @Override
    public JsonObject publish(Caller caller, AgentInfo from, EnvelopeDraft draft, String messageId, SignatureVerdict verdict) {
        throw new RedsynException(501, "topics are not available on this relay yet");
    }
}
