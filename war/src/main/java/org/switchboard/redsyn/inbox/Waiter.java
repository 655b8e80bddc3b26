package org.switchboard.redsyn.inbox;

import jakarta.json.JsonObject;
import jakarta.ws.rs.container.AsyncResponse;
import java.util.List;
import java.util.function.Supplier;

/**
 * A parked long poll: a few fields and the suspended response, holding no thread. Its state machine
 * guarantees it is answered exactly once, and that items taken for it are never dropped by a
 * concurrent timeout or lost to a wake that arrives while a take attempt runs.
 */
final class Waiter {

    private enum State { PARKED, RUNNING, DONE }

    /** What follows a take attempt. */
    enum Outcome { ANSWER, RETRY, PARK }

    final long agentId;
    final AsyncResponse response;
    private final Supplier<List<JsonObject>> attempt;
    private State state = State.PARKED;
    private boolean timedOut;
    private boolean wokenWhileRunning;

    Waiter(long agentId, AsyncResponse response, Supplier<List<JsonObject>> attempt) {
        this.agentId = agentId;
        this.response = response;
        this.attempt = attempt;
    }

    /** Claims the waiter for a take attempt; false when done or already running (the wake is then remembered). */
    synchronized boolean startRun() {
        if (state == State.PARKED) {
            state = State.RUNNING;
            return true;
        }
        if (state == State.RUNNING) {
            wokenWhileRunning = true;
        }
        return false;
    }

    /** After an attempt: answer now (items, or the time is up), retry (woken meanwhile), or park again. */
    synchronized Outcome finishRun(boolean gotItems) {
        if (gotItems || timedOut) {
            state = State.DONE;
            return Outcome.ANSWER;
        }
        if (wokenWhileRunning) {
            wokenWhileRunning = false;
            return Outcome.RETRY;
        }
        state = State.PARKED;
        return Outcome.PARK;
    }

    /** The wait is over: true when the caller must answer empty now; false when a running attempt will answer. */
    synchronized boolean expire() {
        if (state == State.PARKED) {
            state = State.DONE;
            return true;
        }
        if (state == State.RUNNING) {
            timedOut = true;
        }
        return false;
    }

    /** Ends the waiter without an answer (the client went away, or the take failed). */
    synchronized void abandon() {
        state = State.DONE;
    }

    synchronized boolean done() {
        return state == State.DONE;
    }

    List<JsonObject> attempt() {
        return attempt.get();
    }
}
