package com.example.shop;

import dev.tollgate.OncePerCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

@ApplicationScoped
public class NightlyExport {

    private final AtomicInteger runs = new AtomicInteger();

    @OncePerCluster(name = "nightly-export", ttl = "1h", atLeast = "5s")
    public void run() throws InterruptedException {
        runs.incrementAndGet();
        Thread.sleep(500);
    }

    public int runs() {
        return runs.get();
    }
}
