package org.switchboard.synapse.pipeline;

import jakarta.json.JsonObject;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.Connection;
import org.switchboard.synapse.session.RegistrationService;

/**
 * The pipeline's session steps (§1.4 steps 4–11): the first frame's checks and bind on a socket
 * without a name, the name-switch refusal on a bound one, liveness and the delivery binding.
 */
public final class RegistrationSteps {

    private RegistrationSteps() {
    }

    /**
     * Marks a frame on a socket without a name as registering, so the first-frame steps apply; a
     * further frame racing the close of a refused first frame goes no further.
     */
    public static final class FirstFrame implements PipelineStep {
        @Override
        public boolean pass(FrameInFlight f) {
            f.registering = !f.connection.isBound();
            return !(f.registering && f.connection.firstFrameHandled());
        }
    }

    /**
     * A step that applies only to the first frame of a socket without a name (see {@link FirstFrame});
     * frames on bound sockets pass it untouched.
     */
    public abstract static class FirstFrameCheck implements PipelineStep {

        /** The registration rules the check calls. */
        protected final RegistrationService registration;

        /** A check calling {@code registration}. */
        protected FirstFrameCheck(RegistrationService registration) {
            this.registration = registration;
        }

        @Override
        public final boolean pass(FrameInFlight f) {
            return !f.registering || check(f);
        }

        /** The check itself, for a registering frame; false when it refused the frame. */
        protected abstract boolean check(FrameInFlight f);
    }

    /** The first frame must name a sender (core §4.4). */
    public static final class SenderNamed extends FirstFrameCheck {

        /** Refuses through {@code registration}. */
        public SenderNamed(RegistrationService registration) {
            super(registration);
        }

        @Override
        protected boolean check(FrameInFlight f) {
            return registration.named(f.connection, f.sender);
        }
    }

    /** Step 4: reserved sender names (hub/system identities, any name with {@code @}) → 4009. */
    public static final class ReservedNames extends FirstFrameCheck {

        /** Refuses through {@code registration}. */
        public ReservedNames(RegistrationService registration) {
            super(registration);
        }

        @Override
        protected boolean check(FrameInFlight f) {
            return registration.notReserved(f.connection, f.sender);
        }
    }

    /** Step 5: the connect token on a secured hub. */
    public static final class ConnectToken extends FirstFrameCheck {

        /** Authenticates through {@code registration}. */
        public ConnectToken(RegistrationService registration) {
            super(registration);
        }

        @Override
        protected boolean check(FrameInFlight f) {
            return registration.authenticated(f.connection, f.sender, f.frame);
        }
    }

    /** Step 7: {@code token} leaves the frame; nothing after this step (routing, history, journal, logs) sees it. */
    public static final class TokenRemoved implements PipelineStep {
        @Override
        public boolean pass(FrameInFlight f) {
            JsonObject frame = f.frame;
            if (frame.containsKey("token")) {
                f.frame = Jsons.PROVIDER.createObjectBuilder(frame).remove("token").build();
            }
            return true;
        }
    }

    /** Steps 8–9 on the first frame: name resolution, then the welcome, joined presence and replays. */
    public static final class NameResolution extends FirstFrameCheck {

        /** Binds through {@code registration}. */
        public NameResolution(RegistrationService registration) {
            super(registration);
        }

        @Override
        protected boolean check(FrameInFlight f) {
            RegistrationService.Bind bind = registration.resolveName(f.connection, f.sender, f.frame);
            if (bind == RegistrationService.Bind.REFUSED) {
                return false;
            }
            f.firstBind = true;
            if (bind == RegistrationService.Bind.PEER) {
                registration.peerWelcome(f.connection, f.sender); // step 9 only: no presence or replays
                return true;
            }
            f.tookOver = bind == RegistrationService.Bind.TOOK_OVER;
            registration.welcome(f.connection, f.sender, f.frame, f.tookOver);
            return true;
        }
    }

    /**
     * A bound socket may not switch names (core §4.4 step 4); a socket superseded by a takeover
     * while this frame was on its way handles nothing more.
     */
    public static final class NameSwitch implements PipelineStep {

        private final RegistrationService registration;

        /** Refuses through {@code registration}. */
        public NameSwitch(RegistrationService registration) {
            this.registration = registration;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            Connection connection = f.connection;
            if (!f.registering && !f.sender.isEmpty() && !f.sender.equals(connection.name())) {
                registration.refuseNameSwitch(connection, f.sender);
                return false;
            }
            return !connection.superseded();
        }
    }

    /** Step 10: presence and heartbeat bookkeeping (the protocol version was bound with the name). */
    public static final class Liveness implements PipelineStep {

        private final RegistrationService registration;

        /** Touches through {@code registration}. */
        public Liveness(RegistrationService registration) {
            this.registration = registration;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            registration.touch(f.connection, "heartbeat".equals(f.type), f.firstBind);
            return true;
        }
    }

    /** Step 11: the delivery-session binding (§2.2) on the first frame or one carrying its fields; may close 4020. */
    public static final class DeliveryBinding implements PipelineStep {

        private final RegistrationService registration;

        /** Binds through {@code registration}. */
        public DeliveryBinding(RegistrationService registration) {
            this.registration = registration;
        }

        @Override
        public boolean pass(FrameInFlight f) {
            if (!f.firstBind && f.deliveryFrame == null) {
                return true;
            }
            return registration.bindDelivery(f.connection, f.type, f.firstBind, f.deliveryFrame);
        }
    }
}
