package dev.tollgate.demo;

import dev.tollgate.LockLost;
import dev.tollgate.OncePerCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A job three times longer than its lock's ttl: the lock is kept alive while it runs, so it still runs
 * on one server at a time. A lock found lost while it runs is heard as the {@link LockLost} event.
 */
@ApplicationScoped
public class LongReportJob {

    /** The job's lock. */
    public static final String LOCK = "demo-long-report";

    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger lost = new AtomicInteger();

    @OncePerCluster(name = LOCK, ttl = "1s", keepAlive = true)
    public void run() throws InterruptedException {
        runs.incrementAndGet();
        Thread.sleep(3000);
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
