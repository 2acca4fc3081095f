package dev.tollgate.internal.lock;

import dev.tollgate.LockHandle;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.RedisClient;
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
 *       the lock, reads the shared resource, prints {@code READ <token>}, and at the next line ({@code
 *       WRITE}) writes the resource plus the element and prints {@code WROTE ok|rejected};
 *   <li>{@code long-job <url> <id> <ttl-ms> <job-ms> <for-ms>}: once warm, waits for the start time
 *       the test publishes, then for {@code for-ms} tries every 50 ms to run a job of {@code job-ms}
 *       under a kept-alive lock of {@code ttl-ms}, recording each run's Redis-time interval and each
 *       outcome;
 *   <li>{@code keep <url> <name> <ttl-ms>}: takes the lock and keeps it alive, printing {@code LOST
 *       <reason>} when told it was lost; stdin {@code ASK} prints {@code HELD <isHeld>}.
 * </ul>
 */
public final class LockChild {

    private LockChild() {}

    public static void main(String[] args) throws Exception {
        // The test's own commands go on a client of their own: Tollgate's link sends only Tollgate's.
        try (RedisLink link = RedisClients.create(RedisSettings.of(args[1], Duration.ofSeconds(2), 4));
                UnifiedJedis jedis = RedisClient.create(URI.create(args[1]))) {
            switch (args[0]) {
                case "race" -> race(link, jedis, args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
                case "hold" -> hold(link, jedis, args[2], Long.parseLong(args[3]));
                case "writer" -> writer(link, jedis, args[2], Long.parseLong(args[3]), Boolean.parseBoolean(args[4]));
                case "long-job" ->
                    longJob(
                            link,
                            jedis,
                            args[2],
                            Long.parseLong(args[3]),
                            Long.parseLong(args[4]),
                            Long.parseLong(args[5]));
                case "keep" -> keep(link, args[2], Long.parseLong(args[3]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
    }

    private static void race(RedisLink link, UnifiedJedis jedis, String id, int rounds, long periodMillis)
            throws Exception {
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

    private static void hold(RedisLink link, UnifiedJedis jedis, String name, long ttlMillis)
            throws InterruptedException {
        long before = redisMicros(jedis);
        HeldLock held = (HeldLock) RedisDistributedLock.using(link)
                .tryAcquire(name, Duration.ofMillis(ttlMillis))
                .handle()
                .orElseThrow();
        System.out.println("ACQUIRED " + held.token() + " " + held.fencingToken() + " " + before);
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void writer(RedisLink link, UnifiedJedis jedis, String name, long ttlMillis, boolean fenced)
            throws Exception {
        RedisDistributedLock lock = RedisDistributedLock.using(link);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String element = line.substring("GO ".length());
            LockHandle held =
                    lock.tryAcquire(name, Duration.ofMillis(ttlMillis)).handle().orElseThrow();
            String value = FencedResource.read(jedis);
            System.out.println("READ " + held.fencingToken());
            // The test freezes this JVM here, past the lock's ttl, as a long GC pause would, and says when
            // to go on: a handshake, so a slow machine cannot let the write slip in before the freeze.
            if (!"WRITE".equals(in.readLine())) {
                return;
            }
            boolean ok = FencedResource.write(jedis, FencedResource.append(value, element), held, fenced);
            System.out.println("WROTE " + (ok ? "ok" : "rejected"));
            held.close();
        }
    }

    private static void longJob(
            RedisLink link, UnifiedJedis jedis, String id, long ttlMillis, long jobMillis, long forMillis)
            throws Exception {
        try (RedisDistributedLock lock = RedisDistributedLock.using(link)) {
            OncePerClusterRunner runner = new OncePerClusterRunner(lock, LockMetrics.NONE, System::nanoTime);
            LockSpec spec =
                    LockSpec.of("long-job", Duration.ofMillis(ttlMillis)).keptAlive();
            // A cold JVM's first acquire takes most of a second (client, classes, script cache): not in the race.
            runner.run(LockSpec.of("warm-up-" + id, Duration.ofSeconds(5)), () -> null);
            long start = awaitGo(jedis, id, "long-job");
            while (redisMicros(jedis) < start + forMillis * 1000) {
                JobRun run = runner.run(spec, () -> {
                    long begin = redisMicros(jedis);
                    long inside = jedis.incr("long-job:inside");
                    Thread.sleep(jobMillis);
                    jedis.decr("long-job:inside");
                    jedis.rpush("long-job:runs", id + " " + begin + " " + redisMicros(jedis) + " " + inside);
                    return null;
                });
                jedis.rpush("long-job:outcomes", run.outcome().name());
                Thread.sleep(50);
            }
        }
    }

    private static void keep(RedisLink link, String name, long ttlMillis) throws Exception {
        try (RedisDistributedLock lock = RedisDistributedLock.using(
                GuardedRedis.unguarded(link),
                lost -> System.out.println("LOST " + lost.reason() + " " + lost.fencingToken()))) {
            // Warm first: isHeld counts from before the acquire was sent, and a cold JVM's first takes long.
            lock.tryAcquire("warm-up-" + name, Duration.ofSeconds(5))
                    .handle()
                    .orElseThrow()
                    .close();
            LockHandle held =
                    lock.tryAcquire(name, Duration.ofMillis(ttlMillis)).handle().orElseThrow();
            held.keepAlive();
            System.out.println("ACQUIRED " + held.fencingToken());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("ASK")) {
                    System.out.println("HELD " + held.isHeld());
                }
            }
        }
    }

    /** Says it is ready, and returns the start time (Redis microseconds) the test then publishes. */
    private static long awaitGo(UnifiedJedis jedis, String id, String prefix) throws InterruptedException {
        jedis.rpush(prefix + ":ready", id);
        String go = jedis.get(prefix + ":go");
        for (int i = 0; go == null && i < 3000; i++, go = jedis.get(prefix + ":go")) {
            Thread.sleep(10);
        }
        long start = Long.parseLong(go);
        awaitRedisTime(jedis, start);
        return start;
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
