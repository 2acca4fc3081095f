package dev.tollgate.experiments.race;

import dev.tollgate.experiments.common.LocalRedis;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import redis.clients.jedis.Jedis;

/**
 * One of the separate JVMs of the multi-process configuration. It connects and warms up, prints
 * {@code READY}, waits for {@code GO} on standard input so that every process starts together, runs
 * its share of the checks and prints {@code ADMITTED <n>}.
 *
 * <p>Arguments: impl variant port key capacity inFlight checks.
 */
public final class RaceChild {

    private RaceChild() {}

    public static void main(String[] args) throws Exception {
        Impl impl = Impl.valueOf(args[0]);
        Variant variant = Variant.valueOf(args[1]);
        int port = Integer.parseInt(args[2]);
        String key = args[3];
        long capacity = Long.parseLong(args[4]);
        int inFlight = Integer.parseInt(args[5]);
        int checks = Integer.parseInt(args[6]);
        String url = "redis://127.0.0.1:" + port;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int admitted;
        if (variant == Variant.POOL) {
            try (PoolRace race = new PoolRace(url, inFlight)) {
                race.run(impl, key + ":warmup", 1_000_000, 300);
                awaitGo(in);
                admitted = race.run(impl, key, capacity, checks);
            }
        } else {
            try (Jedis jedis = LocalRedis.jedis(port, 5000)) {
                new OneConnectionRace(jedis.getConnection(), impl, key + ":warmup", 1_000_000).run(inFlight, 300);
                awaitGo(in);
                admitted = new OneConnectionRace(jedis.getConnection(), impl, key, capacity).run(inFlight, checks);
            }
        }
        System.out.println("ADMITTED " + admitted);
        System.out.flush();
    }

    private static void awaitGo(BufferedReader in) throws java.io.IOException {
        System.out.println("READY");
        System.out.flush();
        String line = in.readLine();
        if (!"GO".equals(line)) {
            throw new IllegalStateException("expected GO, got " + line);
        }
    }
}
