package dev.tollgate.experiments.bench;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Stats;
import io.github.bucket4j.distributed.BucketProxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The checks timed call by call, in turn, in one JVM on one client: round i runs each check once, in
 * an order that rotates every round, so load from elsewhere on a shared machine falls on all of them
 * alike (JMH's forks run one after the other, minutes apart). One thread, spread keys, like the JMH
 * latency runs.
 */
final class Interleaved {

    /** One check's latencies. */
    record Row(String check, double p50, double p90, double p99) {}

    static final List<String> CHECKS = List.of("ping", "evalsha", "tollgate", "guarded", "bucket4j");

    private Interleaved() {}

    static List<Row> measure(LocalRedis redis, int rounds) throws Exception {
        try (Checks c = new Checks(redis.url(), 64)) {
            BucketProxy[] buckets = new BucketProxy[16];
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = c.bucket4jBucket(Checks.key("bucket4j", "interleaved-" + i));
            }
            List<IntPredicate> checks = List.of(
                    i -> c.ping() != null,
                    i -> c.evalsha(Checks.storeKey("interleaved-" + i % 16)),
                    i -> c.tollgate(Checks.key("tollgate", "interleaved-" + i % 16)),
                    i -> c.guarded("interleaved-" + i % 16),
                    i -> Checks.bucket4j(buckets[i % 16]));
            run(checks, rounds / 5, new long[checks.size()][rounds / 5]); // warm-up
            long[][] nanos = new long[checks.size()][rounds];
            run(checks, rounds, nanos);
            List<Row> rows = new ArrayList<>();
            for (int k = 0; k < checks.size(); k++) {
                long[] sorted = nanos[k].clone();
                Arrays.sort(sorted);
                rows.add(new Row(
                        CHECKS.get(k),
                        Stats.percentile(sorted, 50) / 1000.0,
                        Stats.percentile(sorted, 90) / 1000.0,
                        Stats.percentile(sorted, 99) / 1000.0));
            }
            return rows;
        }
    }

    private static void run(List<IntPredicate> checks, int rounds, long[][] nanos) {
        int n = checks.size();
        for (int i = 0; i < rounds; i++) {
            for (int j = 0; j < n; j++) {
                int k = (i + j) % n;
                long start = System.nanoTime();
                if (!checks.get(k).test(i)) {
                    throw new IllegalStateException(CHECKS.get(k) + " was denied: the bucket is meant to hold 10^9");
                }
                nanos[k][i] = System.nanoTime() - start;
            }
        }
    }
}
