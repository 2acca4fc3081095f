package dev.tollgate.experiments.race;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.MonitorTap;
import java.util.List;
import java.util.function.Consumer;
import redis.clients.jedis.Jedis;

/**
 * What Redis saw: a separate connection runs {@code MONITOR} while checks with 2 in flight spend a
 * bucket of 3 tokens. The article's evidence for the read, read, write, write order.
 */
final class MonitorCapture {

    private MonitorCapture() {}

    static String capture(LocalRedis redis) throws Exception {
        StringBuilder out = new StringBuilder();
        out.append("# MONITOR while checks with 2 in flight spend a bucket of 3 tokens (8 checks each).\n");
        out.append("# Redis ").append(redis.version()).append(", captured by experiments/run race.\n\n");

        out.append("## naive, 2 in flight on ONE connection (the article's setup): read, read, write, write\n");
        int[] admitted = new int[1];
        out.append(monitor(
                redis,
                "wire",
                jedis -> admitted[0] = new OneConnectionRace(jedis.getConnection(), Impl.NAIVE, "wire", 3).run(2, 8)));
        out.append("# admitted: ").append(admitted[0]).append(" of 8 checks on 3 tokens\n\n");

        out.append("## naive, 2 threads on 2 pooled connections: the interleaving varies from run to run\n");
        out.append(monitor(redis, "wire2", jedis -> {
            try (PoolRace race = new PoolRace(redis.url(), 2)) {
                admitted[0] = race.run(Impl.NAIVE, "wire2", 3, 8);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        out.append("# admitted: ").append(admitted[0]).append(" of 8 checks on 3 tokens\n\n");

        out.append("## Tollgate's script, 2 in flight on ONE connection: each EVALSHA runs whole, lines marked lua\n");
        out.append(monitor(
                redis,
                "{wire3}",
                jedis -> admitted[0] = new OneConnectionRace(jedis.getConnection(), Impl.LUA, "{wire3}", 3).run(2, 8)));
        out.append("# admitted: ").append(admitted[0]).append(" of 8 checks on 3 tokens\n");
        return out.toString();
    }

    /** Runs {@code work} on a fresh connection while another connection monitors; returns the lines about {@code key}. */
    private static String monitor(LocalRedis redis, String key, Consumer<Jedis> work) throws Exception {
        List<String> lines;
        try (MonitorTap tap = MonitorTap.start(redis)) {
            try (Jedis jedis = redis.admin()) {
                work.accept(jedis);
            }
            lines = tap.stop();
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            if (l.contains("\"" + key + "\"") || MonitorTap.fromScript(l)) {
                sb.append(l).append('\n');
            }
        }
        return sb.toString();
    }
}
