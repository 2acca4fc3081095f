package dev.tollgate.demo;

import dev.tollgate.OncePerCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A job that must run on one server at a time, however many servers (or requests) start it: the
 * article's nightly export, shortened to half a second. In a real application the method would carry
 * an EJB {@code @Schedule} as well.
 */
@ApplicationScoped
public class ReportJob {

    private final AtomicInteger runs = new AtomicInteger();

    @OncePerCluster(name = "demo-report", ttl = "30s")
    public void run() throws InterruptedException {
        runs.incrementAndGet();
        Thread.sleep(500);
    }

    /** How many times the job ran on this server. */
    public int runs() {
        return runs.get();
    }
}
