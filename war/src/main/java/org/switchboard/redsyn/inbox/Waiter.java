package org.switchboard.redsyn.inbox;

import jakarta.ws.rs.container.AsyncResponse;

/**
 * A parked long poll: a few fields and the suspended response, holding no thread. Its state machine
 * guarantees it is answered exactly once, that items taken for it are never dropped by a concurrent
 * timeout or lost to a wake that arrives while a take attempt runs, and that items taken for a poll
 * whose client has gone are given back rather than handed to nobody.
 */
final class Waiter {

    private enum State { PARKED, RUNNING, DONE }

    /** What follows a take attempt. */
    enum Outcome { ANSWER, RETRY, PARK, GONE }

    final long agentId;
    final AsyncResponse response;
    final Taker taker;
    final PollConnection connection;
    private State state = State.PARKED;
    private boolean timedOut;
    private boolean wokenWhileRunning;
    private boolean gone;
    private Taken handed;

    Waiter(long agentId, AsyncResponse response, Taker taker, PollConnection connection) {
        this.agentId = agentId;
        this.response = response;
        this.taker = taker;
        this.connection = connection;
    }

    /** Claims the waiter for a take attempt; false when done, gone or already running (the wake is then remembered). */
    synchronized boolean startRun() {
        if (state == State.PARKED && !gone) {
            state = State.RUNNING;
            return true;
        }
        if (state == State.RUNNING) {
            wokenWhileRunning = true;
        }
        return false;
    }

    /**
     * After an attempt: the client is gone (give back what was taken), answer now (items, or the time
     * is up), retry (woken meanwhile), or park again.
     */
    synchronized Outcome finishRun(boolean gotItems) {
        if (gone) {
            state = State.DONE;
            return Outcome.GONE;
        }
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

    /** Makes the next attempt the last: it answers even when it finds nothing (a poll without a wait). */
    synchronized void lastAttempt() {
        timedOut = true;
    }

    /**
     * The client went away. True when the caller must release the waiter now (it was parked); a
     * running attempt sees it when it finishes, and a done waiter has nothing left to do.
     */
    synchronized boolean disconnect() {
        gone = true;
        if (state == State.PARKED) {
            state = State.DONE;
            return true;
        }
        return false;
    }

    /** True when the client was told to be gone (by the watch or a failed write); looks at no socket. */
    synchronized boolean toldGone() {
        return gone;
    }

    /** True when the client is known to be gone: told so, or its connection says so now (the check before a lease). */
    boolean clientGone() {
        synchronized (this) {
            if (gone) {
                return true;
            }
        }
        if (connection.gone()) {
            synchronized (this) {
                gone = true;
            }
            return true;
        }
        return false;
    }

    /** Ends the waiter without an answer (the take failed). */
    synchronized void abandon() {
        state = State.DONE;
    }

    synchronized boolean done() {
        return state == State.DONE;
    }

    /** Records what is being written to the client, so a failed write can give it back. */
    synchronized void handing(Taken taken) {
        handed = taken;
    }

    /** What was handed and not yet given back (once), or null. */
    synchronized Taken takeBackHanded() {
        Taken t = handed;
        handed = null;
        return t;
    }
}
