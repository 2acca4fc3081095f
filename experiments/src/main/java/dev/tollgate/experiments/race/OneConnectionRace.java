package dev.tollgate.experiments.race;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import java.util.List;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * {@code inFlight} checks multiplexed on one connection by one thread, the way one Node process with
 * several requests in flight drives one Redis connection: whatever commands are ready are written
 * together, the replies come back in order, and each check takes its next step. A check that finishes
 * is replaced at once by the next, until {@code checks} have been started.
 */
final class OneConnectionRace {

    private enum Step {
        IDLE,
        READ,
        WRITE,
        SCRIPT,
        DONE
    }

    private final Connection connection;
    private final Impl impl;
    private final String key;
    private final long capacity;
    private final List<String> scriptArgs;

    OneConnectionRace(Connection connection, Impl impl, String key, long capacity) {
        this.connection = connection;
        this.impl = impl;
        this.key = key;
        this.capacity = capacity;
        this.scriptArgs = scriptArgs(LimitPolicy.quota("race", capacity));
        if (impl == Impl.LUA) {
            // A pipelined EVALSHA cannot fall back to EVAL per call as the store does: load it up front.
            new Jedis(connection)
                    .scriptLoad(
                            RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).source());
        }
    }

    /** The arguments RedisRateLimitStore passes to token-bucket.lua for {@code policy}. */
    static List<String> scriptArgs(LimitPolicy policy) {
        return List.of(
                Long.toString(policy.capacity()),
                Long.toString(policy.refillTokens()),
                Long.toString(Math.max(1, policy.refillPeriod().toNanos() / 1000)),
                Long.toString(policy.cost()));
    }

    /** Runs {@code checks} checks with {@code inFlight} at a time; returns how many were admitted. */
    int run(int inFlight, int checks) {
        Step[] step = new Step[inFlight];
        java.util.Arrays.fill(step, Step.IDLE);
        Response<?>[] reply = new Response<?>[inFlight];
        long[] seen = new long[inFlight];
        int started = 0;
        int admitted = 0;
        while (true) {
            Pipeline p = new Pipeline(connection);
            boolean sent = false;
            for (int s = 0; s < inFlight; s++) {
                if (step[s] == Step.IDLE) {
                    if (started == checks) {
                        step[s] = Step.DONE;
                        continue;
                    }
                    started++;
                    step[s] = impl == Impl.NAIVE ? Step.READ : Step.SCRIPT;
                    reply[s] = impl == Impl.NAIVE
                            ? p.hmget(key, NaiveCheck.FIELD)
                            : p.evalsha(
                                    RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET)
                                            .sha1(),
                                    List.of(key),
                                    scriptArgs);
                    sent = true;
                } else if (step[s] == Step.WRITE) {
                    reply[s] = p.hset(key, NaiveCheck.FIELD, Long.toString(seen[s] - 1));
                    sent = true;
                }
            }
            if (!sent) {
                p.close();
                return admitted;
            }
            p.sync();
            for (int s = 0; s < inFlight; s++) {
                switch (step[s]) {
                    case READ -> {
                        @SuppressWarnings("unchecked")
                        List<String> v = (List<String>) reply[s].get();
                        seen[s] = NaiveCheck.tokens(v, capacity);
                        // WRITE is entered here, after this batch's sends: the HSET goes out in the next one.
                        step[s] = seen[s] >= 1 ? Step.WRITE : Step.IDLE;
                    }
                    case WRITE -> {
                        // A slot in WRITE at this point sent its HSET in this batch: the check passed.
                        admitted++;
                        step[s] = Step.IDLE;
                    }
                    case SCRIPT -> {
                        if (((Long) ((List<?>) reply[s].get()).get(0)) == 1L) {
                            admitted++;
                        }
                        step[s] = Step.IDLE;
                    }
                    default -> {}
                }
            }
        }
    }
}
