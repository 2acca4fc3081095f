package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.ejb.AsyncResult;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import java.time.Instant;
import java.util.concurrent.Future;

/**
 * Calls a partner that allows 2 calls per second ({@code demo-partner}): a call that finds no token
 * waits for it, up to 3 seconds, instead of failing; the waiters are spaced as the partner allows.
 */
@Stateless
public class PartnerClient {

    /** {@code called <epoch us>}: when the partner was called. */
    @RateLimited(value = "demo-partner", maxWait = "3s")
    public String call() {
        return "called " + micros() + "\n";
    }

    /** The same on an EJB asynchronous thread: the wait happens there, not on the caller's. */
    @Asynchronous
    @RateLimited(value = "demo-partner", maxWait = "3s")
    public Future<String> callLater() {
        return new AsyncResult<>(call());
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
