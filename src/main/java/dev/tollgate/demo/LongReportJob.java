package dev.tollgate.demo;

import dev.tollgate.LockLost;
import dev.tollgate.OncePerCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A job three times longer than its lock's ttl: the lock is kept alive while it runs, so it still runs
 * on one server at a time. A lock found lost while it runs is heard as the {@link LockLost} event. A
 * held run ({@link #hold()} first) lasts until {@link #release()} instead of 3 s (at most a minute), so a
 * test decides when it ends.
 */
@ApplicationScoped
public class LongReportJob {

    /** The job's lock. */
    public static final String LOCK = "demo-long-report";

    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger lost = new AtomicInteger();
    private final AtomicReference<CountDownLatch> release = new AtomicReference<>();

    /** Runs for 3 s, or until {@link #release()} when {@code held} ({@link #hold()} called before). */
    @OncePerCluster(name = LOCK, ttl = "1s", keepAlive = true)
    public void run(boolean held) throws InterruptedException {
        runs.incrementAndGet();
        CountDownLatch until = release.get();
        if (held && until != null) {
            until.await(1, TimeUnit.MINUTES);
        } else {
            Thread.sleep(3000);
        }
    }

    /** The next held run lasts until {@link #release()}: called before {@link #run(boolean)}. */
    public void hold() {
        release.set(new CountDownLatch(1));
    }

    /** Ends the held run. */
    public void release() {
        CountDownLatch until = release.get();
        if (until != null) {
            until.countDown();
        }
    }

    void onLost(@Observes LockLost event) {
        if (event.lockName().equals(LOCK)) {
            lost.incrementAndGet();
        }
    }

    /** {@code runs=<n> lost=<n>} on this server. */
    public String status() {
        return "runs=" + runs.get() + " lost=" + lost.get() + "\n";
    }
}
