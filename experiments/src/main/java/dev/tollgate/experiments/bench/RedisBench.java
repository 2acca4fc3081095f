package dev.tollgate.experiments.bench;

import dev.tollgate.experiments.common.LocalRedis;
import io.github.bucket4j.distributed.BucketProxy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One check against Redis over loopback. {@code ping} is the floor: one round trip that does nothing.
 * The thread count and mode are set by {@link BenchExperiment}; run alone, the state starts its own
 * {@code redis-server}, otherwise it uses the one named by {@code -Dtollgate.bench.redisPort}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RedisBench {

    static final String PORT_PROPERTY = "tollgate.bench.redisPort";
    private static final int KEYS_PER_THREAD = 16;

    Checks checks;
    BucketProxy hotBucket;
    private LocalRedis ownRedis;

    @Setup(Level.Trial)
    public void start() throws Exception {
        int port = Integer.getInteger(PORT_PROPERTY, 0);
        if (port == 0) {
            ownRedis = LocalRedis.start();
            port = ownRedis.port();
        }
        checks = new Checks("redis://127.0.0.1:" + port, 64);
        hotBucket = checks.bucket4jBucket(Checks.key("bucket4j", "hot"));
    }

    @TearDown(Level.Trial)
    public void stop() {
        checks.close();
        if (ownRedis != null) {
            ownRedis.close();
        }
    }

    /** Each thread's own keys, so spread-key runs never contend on a bucket. */
    @State(Scope.Thread)
    public static class Keys {
        String[] tollgate = new String[KEYS_PER_THREAD];
        String[] naive = new String[KEYS_PER_THREAD];
        String[] evalsha = new String[KEYS_PER_THREAD];
        String[] guarded = new String[KEYS_PER_THREAD];
        BucketProxy[] bucket4j = new BucketProxy[KEYS_PER_THREAD];
        int next;

        @Setup(Level.Trial)
        public void keys(RedisBench bench, ThreadParams thread) {
            keys(bench, thread.getThreadIndex());
        }

        /** Thread {@code thread}'s keys; outside JMH too ({@link BenchSmoke}). */
        void keys(RedisBench bench, int thread) {
            for (int i = 0; i < KEYS_PER_THREAD; i++) {
                String id = thread + ":" + i;
                tollgate[i] = Checks.key("tollgate", id);
                naive[i] = Checks.key("naive", id);
                evalsha[i] = Checks.storeKey(id);
                guarded[i] = "client:" + id;
                bucket4j[i] = bench.checks.bucket4jBucket(Checks.key("bucket4j", id));
            }
        }

        int next() {
            next = (next + 1) % KEYS_PER_THREAD;
            return next;
        }
    }

    @Benchmark
    public String ping() {
        return checks.ping();
    }

    @Benchmark
    public boolean tollgate(Keys keys) {
        return checks.tollgate(keys.tollgate[keys.next()]);
    }

    @Benchmark
    public boolean evalsha(Keys keys) {
        return checks.evalsha(keys.evalsha[keys.next()]);
    }

    @Benchmark
    public boolean guarded(Keys keys) {
        return checks.guarded(keys.guarded[keys.next()]);
    }

    @Benchmark
    public boolean bucket4j(Keys keys) {
        return Checks.bucket4j(keys.bucket4j[keys.next()]);
    }

    @Benchmark
    public boolean naive(Keys keys) {
        return checks.naive(keys.naive[keys.next()]);
    }

    @Benchmark
    public boolean evalshaHot() {
        return checks.evalsha(Checks.storeKey("hot"));
    }

    @Benchmark
    public boolean guardedHot() {
        return checks.guarded("hot");
    }

    @Benchmark
    public boolean bucket4jHot() {
        return Checks.bucket4j(hotBucket);
    }
}
