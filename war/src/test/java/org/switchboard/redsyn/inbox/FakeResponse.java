package org.switchboard.redsyn.inbox;

import jakarta.json.JsonObject;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.ConnectionCallback;
import jakarta.ws.rs.container.TimeoutHandler;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Test double of a suspended JAX-RS response: records the answer; can fail its write the way Jersey reports it. */
final class FakeResponse implements AsyncResponse {

    final CountDownLatch answered = new CountDownLatch(1);
    final List<ConnectionCallback> callbacks = new ArrayList<>();
    volatile Object answer;
    volatile int answers;
    /** The write of the answer fails: Jersey then calls the connection callbacks. */
    boolean failWrite;
    /** Already cancelled: resume is refused. */
    boolean refuse;

    /** The items of the answer. */
    List<JsonObject> items() {
        return ((JsonObject) answer).getJsonArray("items").getValuesAs(JsonObject.class);
    }

    boolean awaitAnswer() throws InterruptedException {
        return answered.await(5, TimeUnit.SECONDS);
    }

    @Override
    public synchronized boolean resume(Object response) {
        if (refuse || answers > 0) {
            return false;
        }
        answers++;
        answer = response;
        if (failWrite) {
            callbacks.forEach(c -> c.onDisconnect(this));
        }
        answered.countDown();
        return true;
    }

    @Override
    public boolean resume(Throwable response) {
        return resume((Object) response);
    }

    @Override
    public boolean cancel() {
        return false;
    }

    @Override
    public boolean cancel(int retryAfter) {
        return false;
    }

    @Override
    public boolean cancel(Date retryAfter) {
        return false;
    }

    @Override
    public boolean isSuspended() {
        return answers == 0;
    }

    @Override
    public boolean isCancelled() {
        return refuse;
    }

    @Override
    public boolean isDone() {
        return answers > 0;
    }

    @Override
    public boolean setTimeout(long time, TimeUnit unit) {
        return true;
    }

    @Override
    public void setTimeoutHandler(TimeoutHandler handler) {
    }

    @Override
    public Collection<Class<?>> register(Class<?> callback) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<Class<?>, Collection<Class<?>>> register(Class<?> callback, Class<?>... callbacks) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized Collection<Class<?>> register(Object callback) {
        callbacks.add((ConnectionCallback) callback);
        return List.of(ConnectionCallback.class);
    }

    @Override
    public Map<Class<?>, Collection<Class<?>>> register(Object callback, Object... callbacks) {
        throw new UnsupportedOperationException();
    }
}
