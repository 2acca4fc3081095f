package dev.tollgate.demo;

import dev.tollgate.LimitPolicy;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.HandWrittenEvalsha;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The check an application would write by hand instead of Tollgate, for {@code GET /demo/by-hand}: one
 * {@code EVALSHA} of Tollgate's {@code token-bucket.lua} on a pooled Jedis client of {@code
 * tollgate.redis.url}, with limit {@code demo}'s arguments, on a bucket of the same key shape (its own:
 * {@code demo-by-hand}, per client address). Off unless {@code demo.by-hand.enabled=true} and Redis is
 * configured: it is the baseline of {@code experiments/run http}, not a feature.
 */
@ApplicationScoped
public class HandWrittenLimit {

    /** The limit whose arguments the hand-written call sends. */
    static final String LIKE = "demo";

    static final String BUCKET = "demo-by-hand";

    @Inject
    @ConfigProperty(name = "demo.by-hand.enabled", defaultValue = "false")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "tollgate.redis.url")
    Optional<String> redisUrl;

    @Inject
    TollgateRuntime runtime;

    private HandWrittenEvalsha redis;
    private List<String> args;

    @PostConstruct
    void open() {
        if (enabled && redisUrl.isPresent()) {
            LimitPolicy p = runtime.tollgate().policy(LIKE);
            args = List.of(
                    Long.toString(p.capacity()),
                    Long.toString(p.refillTokens()),
                    Long.toString(p.refillPeriodMicros()),
                    Long.toString(p.cost()));
            redis = HandWrittenEvalsha.connect(redisUrl.get(), RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET));
        }
    }

    /** Whether the check is on (enabled, and Redis configured). */
    boolean on() {
        return redis != null;
    }

    /** One script call for {@code clientAddress}'s bucket: whether it allowed the request. */
    boolean allowed(String clientAddress) {
        return redis.allowed(
                RedisRateLimitStore.keys(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, BUCKET, clientAddress)), args);
    }

    @PreDestroy
    void close() {
        if (redis != null) {
            redis.close();
        }
    }
}
