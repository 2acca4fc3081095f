package dev.tollgate.internal.concurrency;

import dev.tollgate.Permit;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A server of the multi-process concurrency test: {@code <url> <id> <threads> <for-ms> <max> <lease-ms>
 * <work-ms>}. Once warm it waits for the start time the test publishes, then its threads call for
 * {@code for-ms}: each admitted call records its start (Redis time) in {@code inflight:starts}, prints
 * {@code IN}, works {@code work-ms} and records its end in {@code inflight:ends} before freeing its slot.
 */
public final class ConcurrencyChild {

    private ConcurrencyChild() {}

    public static void main(String[] args) throws Exception {
        String id = args[1];
        int threads = Integer.parseInt(args[2]);
        long forMillis = Long.parseLong(args[3]);
        ConcurrencySpec spec = new ConcurrencySpec(
                "shared",
                Long.parseLong(args[4]),
                new KeySpec.Global(),
                Duration.ofMillis(Long.parseLong(args[5])),
                true);
        long workMillis = Long.parseLong(args[6]);
        // The test's own commands go on a client of their own: Tollgate's link sends only Tollgate's.
        try (RedisLink link = RedisClients.create(RedisSettings.of(args[0], Duration.ofSeconds(2), threads + 4));
                UnifiedJedis jedis = client(args[0], threads + 4);
                ConcurrencyLimiter limiter =
                        new ConcurrencyLimiter(RedisConcurrencyStore.using(link), Guard.DIRECT, lostTo(jedis, id))) {
            limiter.tryEnter(spec, "warm-up-" + id).close();
            jedis.rpush("inflight:ready", id);
            String go = jedis.get("inflight:go");
            for (int i = 0; go == null && i < 3000; i++, go = jedis.get("inflight:go")) {
                Thread.sleep(10);
            }
            long until = Long.parseLong(go) + forMillis * 1000;
            AtomicInteger calls = new AtomicInteger();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    try {
                        while (now(jedis) < until) {
                            try (Permit p = limiter.tryEnter(spec, "*")) {
                                if (p.admitted()) {
                                    String call = id + "-" + calls.incrementAndGet();
                                    jedis.rpush("inflight:starts", call + " " + now(jedis));
                                    System.out.println("IN " + call);
                                    Thread.sleep(workMillis);
                                    jedis.rpush("inflight:ends", call + " " + now(jedis));
                                } else {
                                    Thread.sleep(5);
                                }
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
        }
    }

    /** Records each lease lost (a call that outlived its lease) in {@code inflight:lost}. */
    private static ConcurrencyListener lostTo(UnifiedJedis jedis, String id) {
        return new ConcurrencyListener() {
            @Override
            public void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded) {}

            @Override
            public void leaseLost(ConcurrencySpec spec) {
                jedis.rpush("inflight:lost", id);
            }
        };
    }

    /** A client of {@code url} with a connection for each thread, as the link has. */
    private static UnifiedJedis client(String url, int connections) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(connections);
        pool.setMaxIdle(connections);
        return RedisClient.builder().fromURI(URI.create(url)).poolConfig(pool).build();
    }

    static long now(UnifiedJedis jedis) {
        return (Long) jedis.eval("local t = redis.call('TIME') return t[1] * 1000000 + t[2]");
    }
}
