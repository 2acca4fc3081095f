package dev.tollgate.lock;

import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;

/**
 * The other "machines" of the multi-process tests: one JVM per server, talking to the test's Redis.
 *
 * <ul>
 *   <li>{@code race <url> <id> <rounds> <period-ms>}: waits for the start time the test publishes,
 *       then runs job {@code nightly-export-<round>} through {@link OncePerClusterRunner} once per
 *       period, recording each outcome in Redis;
 *   <li>{@code hold <url> <name> <ttl-ms>}: takes the lock, prints its token, and sleeps until killed;
 *   <li>{@code writer <url> <name> <ttl-ms> <fenced>}: for each stdin line {@code GO <element>}, takes
 *       the lock, reads the shared resource, waits a second, and writes the resource plus the element.
 * </ul>
 */
public final class LockChild {

    private LockChild() {}

    public static void main(String[] args) throws Exception {
        try (RedisLink link = RedisClients.create(RedisSettings.of(args[1], Duration.ofSeconds(2), 4))) {
            switch (args[0]) {
                case "race" -> race(link, args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
                case "hold" -> hold(link, args[2], Long.parseLong(args[3]));
                case "writer" -> writer(link, args[2], Long.parseLong(args[3]), Boolean.parseBoolean(args[4]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
    }

    private static void race(RedisLink link, String id, int rounds, long periodMillis) throws Exception {
        UnifiedJedis jedis = link.jedis();
        OncePerClusterRunner runner =
                new OncePerClusterRunner(RedisDistributedLock.using(link), LockMetrics.NONE, System::nanoTime);
        jedis.rpush("race:ready", id);
        String go = jedis.get("race:go");
        for (int i = 0; go == null && i < 3000; i++, go = jedis.get("race:go")) {
            Thread.sleep(10);
        }
        long start = Long.parseLong(go);
        for (int r = 0; r < rounds; r++) {
            awaitRedisTime(jedis, start + r * periodMillis * 1000);
            String round = Integer.toString(r);
            LockSpec spec = new LockSpec("nightly-export-" + r, Duration.ofSeconds(30), Duration.ofSeconds(10));
            JobRun run = runner.run(spec, () -> jedis.incr("race:runs:" + round));
            jedis.rpush("race:outcomes:" + round, run.outcome().name());
            System.out.println(id + " round " + r + " " + run.outcome());
        }
    }

    private static void hold(RedisLink link, String name, long ttlMillis) throws InterruptedException {
        long before = redisMicros(link.jedis());
        HeldLock held = (HeldLock) RedisDistributedLock.using(link)
                .tryAcquire(name, Duration.ofMillis(ttlMillis))
                .handle()
                .orElseThrow();
        System.out.println("ACQUIRED " + held.token() + " " + held.fencingToken() + " " + before);
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void writer(RedisLink link, String name, long ttlMillis, boolean fenced) throws Exception {
        RedisDistributedLock lock = RedisDistributedLock.using(link);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String element = line.substring("GO ".length());
            LockHandle held =
                    lock.tryAcquire(name, Duration.ofMillis(ttlMillis)).handle().orElseThrow();
            String value = FencedResource.read(link.jedis());
            System.out.println("READ " + held.fencingToken());
            // The test freezes this JVM here, past the lock's ttl, as a long GC pause would.
            Thread.sleep(1000);
            boolean ok = FencedResource.write(link.jedis(), FencedResource.append(value, element), held, fenced);
            System.out.println("WROTE " + (ok ? "ok" : "rejected"));
            held.close();
        }
    }

    private static void awaitRedisTime(UnifiedJedis jedis, long micros) throws InterruptedException {
        for (long now = redisMicros(jedis); now < micros; now = redisMicros(jedis)) {
            Thread.sleep(Math.max(0, Math.min(50, (micros - now) / 1000 - 2)));
        }
    }

    static long redisMicros(UnifiedJedis jedis) {
        return (Long) jedis.eval("local t = redis.call('TIME') return t[1] * 1000000 + t[2]");
    }
}
