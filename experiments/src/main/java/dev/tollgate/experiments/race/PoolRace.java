package dev.tollgate.experiments.race;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.redis.LinkClient;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.RedisClient;

/**
 * {@code inFlight} threads, each with its own pooled connection, sharing {@code checks} checks: the way
 * a Java app server's request threads reach Redis through Tollgate's pooled client.
 */
final class PoolRace implements AutoCloseable {

    private final RedisLink link;
    private final RedisRateLimitStore store;
    private final int inFlight;

    PoolRace(String url, int inFlight) {
        this.link = RedisClients.create(RedisSettings.of(url, Duration.ofSeconds(5), inFlight));
        this.store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
        this.inFlight = inFlight;
        // Open every connection now, so the race measures checks, not connects.
        ((RedisClient) LinkClient.of(link)).getPool().addObjects(inFlight);
    }

    /** Runs {@code checks} checks; returns how many were admitted. */
    int run(Impl impl, String key, long capacity, int checks) throws InterruptedException {
        LimitPolicy policy = LimitPolicy.quota("race", capacity);
        AtomicInteger left = new AtomicInteger(checks);
        AtomicInteger admitted = new AtomicInteger();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        CyclicBarrier start = new CyclicBarrier(inFlight);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < inFlight; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    while (left.getAndDecrement() > 0) {
                        boolean ok = impl == Impl.NAIVE
                                ? NaiveCheck.check(LinkClient.of(link), key, capacity)
                                : store.tryConsume(policy, key).allowed();
                        if (ok) {
                            admitted.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    errors.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a check failed", errors.get(0));
        }
        return admitted.get();
    }

    @Override
    public void close() {
        link.close();
    }
}
