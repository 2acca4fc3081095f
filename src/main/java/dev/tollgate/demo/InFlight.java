package dev.tollgate.demo;

import dev.tollgate.ConcurrencyLimited;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Work that at most four calls may do at once across all servers ({@code demo-inflight}): each call
 * counts who else is inside on this server, and says when it ran, so a test can check every instant.
 */
@ApplicationScoped
public class InFlight {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    /** {@code <inside on this server> <start us> <end us>}, epoch microseconds. */
    @ConcurrencyLimited("demo-inflight")
    public String work(long millis) throws InterruptedException {
        long start = micros();
        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
        try {
            Thread.sleep(millis);
        } finally {
            inside.decrementAndGet();
        }
        return most.get() + " " + start + " " + micros() + "\n";
    }

    /** The most calls this server had inside at once. */
    public int most() {
        return most.get();
    }

    /** Epoch microseconds, as the bodies of {@code /demo/inflight} and {@code /demo/slow} say them. */
    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
